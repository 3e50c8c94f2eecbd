// A chart drawn at its own width: its user units are CSS pixels, so a label set at 11px in
// style.css is 11 px on a phone as on a desktop (a fixed viewBox scaled to a 390 px screen
// shrank them to 6-8 px). The chart is drawn again whenever its width changes.

const draws = new WeakMap();
const observer = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    const d = draws.get(target);
    const width = Math.round(target.getBoundingClientRect().width);
    if (d && width > 0 && width !== d.width) draw(target, d.fn, width);
  }
});

function draw(host, fn, width) {
  draws.set(host, { fn, width });
  fn(width);
}

/** Draws `fn(width)` into `host` now (at `fallback` px while it has no width yet) and on every resize. */
export function drawAtWidth(host, fn, fallback) {
  draw(host, fn, Math.round(host.getBoundingClientRect().width) || fallback);
  observer.observe(host);
}
