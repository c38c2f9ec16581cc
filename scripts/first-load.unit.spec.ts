import { describe, expect, it } from 'vitest';
import { BUDGET_BYTES, firstLoadScripts } from './first-load.ts';

describe('first-load', () => {
  it('takes the entry module script and the modulepreload chunks, not stylesheets or lazy chunks', () => {
    const html = `<!doctype html><html><head>
      <script type="module" crossorigin src="/assets/index-A1.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/react-B2.js">
      <link rel="stylesheet" crossorigin href="/assets/index-C3.css">
      <link rel="modulepreload" href='/assets/react-B2.js'>
      <script src="/legacy.js"></script>
    </head><body><div id="root"></div></body></html>`;
    expect(firstLoadScripts(html)).toEqual(['/assets/index-A1.js', '/assets/react-B2.js']);
  });

  it('has a budget of 150 KB', () => {
    expect(BUDGET_BYTES).toBe(153_600);
  });
});
