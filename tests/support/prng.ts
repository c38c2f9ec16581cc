/**
 * A small seeded PRNG (mulberry32) and helpers, for the property tests and the fuzzer: a failing run
 * repeats from its seed. The fuzzer's every choice comes from one of these, so a request is reproducible
 * from its seed and index alone.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max] (both included). */
  int(min: number, max: number): number;
  /** true with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** One of `choices` by weight: [[weight, value], ...]. */
  weighted<T>(choices: ReadonlyArray<readonly [number, T]>): T;
}

/** FNV-1a of a string, as a 32-bit seed. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function createRng(seed: number | string): Rng {
  let a = typeof seed === 'number' ? seed >>> 0 : hashSeed(seed);
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(0, items.length - 1)]!;
    },
    weighted: (choices) => {
      const total = choices.reduce((s, [w]) => s + w, 0);
      let r = next() * total;
      for (const [w, v] of choices) {
        r -= w;
        if (r < 0) return v;
      }
      return choices[choices.length - 1]![1];
    },
  };
}

/** The generator of request `index` of a run seeded with `seed`: independent of every other request. */
export const requestRng = (seed: number, index: number): Rng => createRng(hashSeed(`${seed}:${index}`));
