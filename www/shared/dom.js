// DOM helpers shared by every view: element lookup and creation, the colour scheme, downloads.

export const $ = (id) => document.getElementById(id);

const SVG_NS = 'http://www.w3.org/2000/svg';

/** `el('p', {class, text, 'data-testid': …}, ...children)`: an HTML element. */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

/** An SVG element with attributes and optional text. */
export function svg(tag, attrs = {}, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text != null) e.textContent = text;
  return e;
}

/** Calls `fn` when the colour scheme changes. */
export function onSchemeChange(fn) {
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', fn);
}

export const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

/** How this device points at a bit: "hover" with a mouse or trackpad, "tap" on a touch screen. */
export const pointWord = () => (matchMedia('(hover: hover)').matches ? 'hover' : 'tap');

/** Saves a Blob under `name` through a temporary link. */
export function download(blob, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
