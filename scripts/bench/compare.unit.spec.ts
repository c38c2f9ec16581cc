import { describe, expect, it } from 'vitest';
import { comparison, figuresOf } from './compare.ts';

const flashSale = `
bench-flash-sale (embedded): 2000 buyers, 200 units, create-order + sandbox pay + verify over HTTP
machine: 2 x AMD EPYC, 24 GiB, node v20.20.2
| figure | value |
|---|---:|
| oversold units | 0 |
| all 2000 buyers resolved in | 12.51 s |
| reservations during the race | 200 (16.0/s) |
| create-order p50 / p99 | 4010.2 / 8524.4 ms |
| shop CPU per buyer in the race (node processes, user+system) | 5,525 µs |

sustained, ample stock, 64 concurrent, 10 s:
| run | per second | p50 ms | p99 ms | errors |
|---|---:|---:|---:|---:|
| create-order reservations on one hot product | 219.1 | 295.3 | 474.1 | 0 |
shop CPU per reservation: 4245 µs, Postgres CPU per reservation: 2058 µs
ratio: 0.17x the reference (target >= 2x), create-order p99 474.1 ms (target < 100 ms)
`;

describe('bench compare', () => {
  it('reads every figure a benchmark prints: table cells by row (and column), p50 / p99 pairs, and name: N µs lines', () => {
    const f = figuresOf(flashSale);
    expect(Object.fromEntries(f)).toEqual({
      'oversold units': 0,
      'all 2000 buyers resolved in': 12.51,
      'reservations during the race': 200,
      'create-order p50 / p99 #1': 4010.2,
      'create-order p50 / p99 #2': 8524.4,
      'shop CPU per buyer in the race (node processes, user+system)': 5525,
      'create-order reservations on one hot product · per second': 219.1,
      'create-order reservations on one hot product · p50 ms': 295.3,
      'create-order reservations on one hot product · p99 ms': 474.1,
      'create-order reservations on one hot product · errors': 0,
      'shop CPU per reservation (µs)': 4245,
      'Postgres CPU per reservation (µs)': 2058,
    });
  });

  it("reads the per-phase, answer-time and target tables by row and column, leaving out cells that are not measured ('-')", () => {
    const f = figuresOf(`
when the race's answers came (ms since the race's start):
| answered | count | first | p50 | p99 | last |
|---|---:|---:|---:|---:|---:|
| verifies | 30 | 1538.6 | 1551.9 | 1583.5 | 1583.5 |

per phase: CPU is user+system from /proc; the bench: this process (process.cpuUsage).
| phase | shop CPU µs | Postgres CPU µs | bench CPU µs | commits | of which wrote | SQL statements |
|---|---:|---:|---:|---:|---:|---:|
| refusals only: 300 create-orders, sold out (per refusal) | 5320 | 212 | 948 | 0.30 | - | - |

against the targets (issue 24):
| figure | measured | target |
|---|---:|---:|
| SQL statements per purchase | - | 25 |
| shop CPU per refusal (ms) | 1.28 | 0.3 |
`);
    expect(Object.fromEntries(f)).toEqual({
      'verifies · count': 30,
      'verifies · first': 1538.6,
      'verifies · p50': 1551.9,
      'verifies · p99': 1583.5,
      'verifies · last': 1583.5,
      'refusals only: 300 create-orders, sold out (per refusal) · shop CPU µs': 5320,
      'refusals only: 300 create-orders, sold out (per refusal) · Postgres CPU µs': 212,
      'refusals only: 300 create-orders, sold out (per refusal) · bench CPU µs': 948,
      'refusals only: 300 create-orders, sold out (per refusal) · commits': 0.3,
      'SQL statements per purchase · target': 25,
      'shop CPU per refusal (ms) · measured': 1.28,
      'shop CPU per refusal (ms) · target': 0.3,
    });
  });

  it('gives each figure its mean ± standard error on both sides and the change', () => {
    const run = (s: number, cpu: number) =>
      new Map([
        ['sustained', s],
        ['cpu', cpu],
      ]);
    const lines = comparison([run(240, 4000), run(250, 4200)], [run(260, 3800), run(270, 3900), run(250, 3700)]);
    expect(lines).toEqual([
      '| figure | A | B | B vs A |',
      '|---|---:|---:|---:|',
      '| sustained | 245 ± 5.00 (2) | 260 ± 5.77 (3) | 6.1% |',
      '| cpu | 4100 ± 100 (2) | 3800 ± 57.7 (3) | -7.3% |',
    ]);
  });
});
