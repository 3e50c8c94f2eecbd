#!/usr/bin/env node
// Heat-map redraw time for an 8-Mbit filter in headless Chromium (Debian's /usr/bin/chromium
// through playwright-core), measured in the page with performance.now(). Reported, never
// asserted. Needs dist/site (scripts/build.sh).
//
//   node scripts/bench-browser.mjs [--json] [--out=FILE] [--capacity=1300000] [--reps=15]
//
// The page builds its synthetic demo filter (`?synthetic=CAPACITY`: Java's sizing at 5 %,
// 1,300,000 → 8,105,792 bits), then for each zoom level (fit × 1, 3, 20, 400) the heat-map's
// synchronous draw() (paint into ImageData + putImageData + overlays) is timed `reps` times;
// the median and max per zoom are reported. A full-canvas redraw of the 1280 × 900 viewport
// at device pixel ratio 1.

import { chromium } from 'playwright-core';
import { existsSync, writeFileSync } from 'node:fs';
import { startServer } from './serve.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const a = args.find((x) => x === `--${name}` || x.startsWith(`--${name}=`));
  if (a === undefined) return dflt;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : true;
};
const CAPACITY = Number(opt('capacity', 1_300_000));
const REPS = Number(opt('reps', 15));
const OUT = opt('out');
const JSON_OUT = opt('json') === true;

if (!existsSync('/usr/bin/chromium')) {
  console.error('bench-browser: /usr/bin/chromium missing (bash scripts/setup.sh --browser); skipped');
  process.exit(0);
}

const server = await startServer({ port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
let result;
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const t0 = Date.now();
  await page.goto(`${origin}/?synthetic=${CAPACITY}`);
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 120000 });
  const buildMs = Date.now() - t0;
  result = await page.evaluate((reps) => {
    const map = globalThis.inspector.map;
    const zooms = {};
    for (const f of [1, 3, 20, 400]) {
      const times = [];
      for (let i = 0; i < reps; i++) {
        map.fit();
        map.zoomBy(f);
        const t = performance.now();
        map.draw();
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      zooms[`x${f}`] = { median: times[times.length >> 1], max: times[times.length - 1], min: times[0] };
    }
    return { bitCount: map.bitCount, canvas: [map.canvas.width, map.canvas.height], dpr: devicePixelRatio, zooms };
  }, REPS);
  result.pageReadyMs = buildMs;
  result.chromium = browser.version();
  result.capacity = CAPACITY;
  result.reps = REPS;
  await context.close();
} finally {
  await browser.close();
  await new Promise((r) => server.close(r));
}

if (OUT) writeFileSync(OUT, JSON.stringify(result, null, 2));
if (JSON_OUT) console.log(JSON.stringify(result, null, 2));
else {
  console.log(`\n## Heat-map redraw, ${result.bitCount.toLocaleString('en')}-bit filter, Chromium ${result.chromium}, canvas ${result.canvas.join(' × ')} px\n`);
  console.log('| zoom (× fit) | median draw() | max draw() |');
  console.log('|---:|---:|---:|');
  for (const [z, r] of Object.entries(result.zooms)) console.log(`| ${z.slice(1)} | ${r.median.toFixed(1)} ms | ${r.max.toFixed(1)} ms |`);
  console.log(`\n(page ready with the synthetic filter after ${result.pageReadyMs} ms)`);
}
