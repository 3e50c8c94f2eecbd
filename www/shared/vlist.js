// A virtualised list box: only the rows in view exist in the DOM, so 100k+ rows scroll
// smoothly. Keyboard: Up/Down/PageUp/PageDown/Home/End move the active row, Enter activates it.

let uid = 0;

export class VirtualList {
  constructor(el, { rowHeight = 26, render, onactivate, label }) {
    this.el = el;
    this.rowHeight = rowHeight;
    this.render = render;
    this.onactivate = onactivate ?? (() => {});
    this.count = 0;
    this.active = -1;
    this.prefix = `vl${++uid}-`;
    el.classList.add('vlist');
    el.setAttribute('role', 'listbox');
    el.tabIndex = 0;
    if (label) el.setAttribute('aria-label', label);
    this.spacer = document.createElement('div');
    this.spacer.className = 'vlist-spacer';
    el.append(this.spacer);
    this.rows = new Map(); // index → element
    this.pool = [];
    el.addEventListener('scroll', () => this.#paint());
    new ResizeObserver(() => this.#paint()).observe(el);
    el.addEventListener('click', (ev) => {
      const row = ev.target.closest('.vlist-row');
      if (!row) return;
      const i = Number(row.dataset.index);
      this.setActive(i, false);
      this.onactivate(i, ev);
    });
    el.addEventListener('keydown', (ev) => this.#key(ev));
  }

  setCount(n) {
    this.count = n;
    this.active = n ? Math.min(Math.max(this.active, -1), n - 1) : -1;
    this.spacer.style.height = `${n * this.rowHeight}px`;
    this.refresh();
  }

  /** Re-renders every visible row (data changed). */
  refresh() {
    for (const [, row] of this.rows) this.#recycle(row);
    this.rows.clear();
    this.#paint();
  }

  setActive(i, scroll = true) {
    if (!this.count) return;
    this.active = Math.max(0, Math.min(this.count - 1, i));
    if (scroll) {
      const top = this.active * this.rowHeight;
      if (top < this.el.scrollTop) this.el.scrollTop = top;
      else if (top + this.rowHeight > this.el.scrollTop + this.el.clientHeight) this.el.scrollTop = top + this.rowHeight - this.el.clientHeight;
    }
    this.#paint();
    for (const [j, row] of this.rows) row.setAttribute('aria-selected', String(j === this.active));
    this.el.setAttribute('aria-activedescendant', this.prefix + this.active);
  }

  #key(ev) {
    if (!this.count) return;
    const page = Math.max(1, Math.floor(this.el.clientHeight / this.rowHeight) - 1);
    const moves = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    if (ev.key in moves) this.setActive((this.active < 0 ? -1 : this.active) + moves[ev.key]);
    else if (ev.key === 'Home') this.setActive(0);
    else if (ev.key === 'End') this.setActive(this.count - 1);
    else if ((ev.key === 'Enter' || ev.key === ' ') && this.active >= 0) this.onactivate(this.active, ev);
    else return;
    ev.preventDefault();
  }

  #recycle(row) {
    row.remove();
    this.pool.push(row);
  }

  #paint() {
    const h = this.rowHeight;
    const first = Math.max(0, Math.floor(this.el.scrollTop / h) - 5);
    const last = Math.min(this.count, Math.ceil((this.el.scrollTop + (this.el.clientHeight || 400)) / h) + 5);
    for (const [i, row] of this.rows) {
      if (i < first || i >= last) {
        this.rows.delete(i);
        this.#recycle(row);
      }
    }
    for (let i = first; i < last; i++) {
      if (this.rows.has(i)) continue;
      const row = this.pool.pop() ?? document.createElement('div');
      row.className = 'vlist-row';
      row.setAttribute('role', 'option');
      row.id = this.prefix + i;
      row.dataset.index = String(i);
      row.style.top = `${i * h}px`;
      row.style.height = `${h}px`;
      row.setAttribute('aria-selected', String(i === this.active));
      row.setAttribute('aria-posinset', String(i + 1));
      row.setAttribute('aria-setsize', String(this.count));
      this.render(i, row);
      this.el.append(row);
      this.rows.set(i, row);
    }
  }
}
