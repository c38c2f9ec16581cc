/**
 * Compares two checkouts of the shop on one benchmark: runs it in alternating pairs (A, B, A, B, ...) so that
 * both sides meet the same machine, then prints each figure's mean ± standard error and the change. Single
 * runs on a small shared machine spread by ±15%; a figure moved by less than its errors has not moved.
 *
 *   npx tsx scripts/bench/compare.ts --a <dir> --b <dir> [--pairs 6] [--bench flash-sale] [-- <bench args>]
 *
 * Each side is a checkout with its own `npm ci` (e.g. `git worktree add /tmp/before <commit>`). The figures
 * are every number the benchmark prints in its tables and its `name: N µs` lines.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { runCli } from '../lib/run-cli.ts';

/** Every figure a benchmark's output states: table cells by row and column, and `name: N unit` lines. */
export function figuresOf(output: string): Map<string, number> {
  const figures = new Map<string, number>();
  let header: string[] | undefined;
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim());
  const numberIn = (text: string): number | undefined => {
    const m = text.replace(/(\d),(\d)/g, '$1$2').match(/-?\d+(\.\d+)?/);
    return m ? Number(m[0]) : undefined;
  };
  for (const line of output.split('\n')) {
    if (line.trim().startsWith('|')) {
      const row = cells(line);
      if (row.every((c) => /^-*:?-+:?$/.test(c))) continue; // the |---|---:| line
      if (!header) {
        header = row;
        continue;
      }
      row.slice(1).forEach((cell, i) => {
        const column = header![i + 1] ?? `column ${i + 2}`;
        const name = header!.length === 2 ? row[0]! : `${row[0]} · ${column}`;
        // "4010.2 / 8524.4 ms" (p50 / p99): each part a figure of its own
        const parts = cell.split(' / ').map(numberIn);
        if (parts.length > 1 && parts.every((v) => v !== undefined))
          parts.forEach((v, j) => figures.set(`${name} #${j + 1}`, v!));
        else if (parts[0] !== undefined) figures.set(name, parts[0]);
      });
      continue;
    }
    header = undefined;
    for (const m of line.matchAll(/([A-Za-z][\w ]*?): (-?[\d,]+(?:\.\d+)?) (µs|ms|s)\b/g))
      figures.set(`${m[1]!.trim()} (${m[3]})`, Number(m[2]!.replaceAll(',', '')));
  }
  return figures;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const standardError = (xs: number[]) => {
  if (xs.length < 2) return NaN;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1) / xs.length);
};

/** The comparison table: each figure's mean ± standard error on both sides and B's change against A. */
export function comparison(a: Array<Map<string, number>>, b: Array<Map<string, number>>): string[] {
  const names = [...new Set([...a, ...b].flatMap((f) => [...f.keys()]))];
  const lines = ['| figure | A | B | B vs A |', '|---|---:|---:|---:|'];
  // three significant figures or so: 12.51 s and 4,010 µs alike
  const n = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2));
  const shown = (xs: number[]) => (xs.length ? `${n(mean(xs))} ± ${n(standardError(xs))} (${xs.length})` : '-');
  for (const name of names) {
    const xa = a.flatMap((f) => (f.has(name) ? [f.get(name)!] : []));
    const xb = b.flatMap((f) => (f.has(name) ? [f.get(name)!] : []));
    const change = xa.length && xb.length && mean(xa) !== 0 ? `${((mean(xb) / mean(xa) - 1) * 100).toFixed(1)}%` : '-';
    lines.push(`| ${name} | ${shown(xa)} | ${shown(xb)} | ${change} |`);
  }
  return lines;
}

async function main(argv: string[]): Promise<number> {
  const split = argv.indexOf('--');
  const own = split >= 0 ? argv.slice(0, split) : argv;
  const benchArgs = split >= 0 ? argv.slice(split + 1) : [];
  const opt = (name: string) => (own.includes(`--${name}`) ? own[own.indexOf(`--${name}`) + 1] : undefined);
  const a = opt('a');
  const b = opt('b');
  if (!a || !b) {
    console.error('usage: compare.ts --a <dir> --b <dir> [--pairs 6] [--bench flash-sale] [-- <bench args>]');
    return 2;
  }
  const pairs = Number(opt('pairs') ?? '6');
  const bench = opt('bench') ?? 'flash-sale';
  const runs: Record<'A' | 'B', Array<Map<string, number>>> = { A: [], B: [] };
  for (let i = 1; i <= pairs; i++) {
    for (const [side, dir] of [
      ['A', a],
      ['B', b],
    ] as const) {
      const run = spawnSync('npm', ['run', '--silent', `bench:${bench}`, '--', ...benchArgs], {
        cwd: path.resolve(dir),
        encoding: 'utf8',
        maxBuffer: 64 * 2 ** 20,
      });
      if (run.status !== 0) {
        console.error(`${side} run ${i} failed (exit ${run.status}):\n${run.stderr.slice(-2000)}`);
        return 1;
      }
      runs[side].push(figuresOf(run.stdout));
      console.error(`pair ${i}/${pairs}: ${side} done`);
    }
  }
  console.log(`\nbench:${bench} ${benchArgs.join(' ')}: A = ${a}, B = ${b}, ${pairs} alternating pairs`);
  console.log('mean ± standard error (runs); a change smaller than the errors is no change\n');
  for (const line of comparison(runs.A, runs.B)) console.log(line);
  return 0;
}

runCli(import.meta.url, main, 1);
