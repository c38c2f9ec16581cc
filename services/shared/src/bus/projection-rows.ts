/**
 * The rows a read model's evolve works on (projection-read-model.ts): one RowTable per declared table, the
 * statements of a projection as operations on rows held in memory, by primary key. In replay every row is
 * in memory from the start; live, the rows of the keys a batch touches are loaded from Postgres, changed
 * here, and written back (the table remembers what it changed).
 *
 * Rows are grouped by their first key column (a product's stock levels, a stream's holds), so a read model
 * can read or delete every row of one group (rowsOf, deleteRowsOf), and live mode loads whole groups.
 */

/** A table as a read model declares it. */
export interface TableDeclaration<C extends string = string> {
  /** The live table, schema-qualified (`catalog.products`). */
  readonly table: string;
  /** The primary key's columns, in order; the first groups the rows. */
  readonly key: readonly C[];
  /** The columns the read model fills (others take their defaults), the key's among them. */
  readonly columns: readonly C[];
  /**
   * A column whose rows can be found by value (rowsWhere), compared lower-cased with `lower`: live, they
   * are loaded by `column` (or `lower(column)`).
   */
  readonly lookup?: { readonly column: C; readonly lower?: boolean };
}

/** Declares a table of a read model. */
export function table<C extends string>(
  name: string,
  spec: { key: readonly C[]; columns: readonly C[]; lookup?: { column: C; lower?: boolean } },
): TableDeclaration<C> {
  if (!/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/.test(name))
    throw new Error(`Bad table name ${name}: expected schema.table`);
  for (const k of spec.key) if (!spec.columns.includes(k)) throw new Error(`${name}: key column ${k} is not a column`);
  if (spec.lookup && !spec.columns.includes(spec.lookup.column))
    throw new Error(`${name}: the lookup column ${spec.lookup.column} is not a column`);
  return { table: name, key: spec.key, columns: spec.columns, ...(spec.lookup ? { lookup: spec.lookup } : {}) };
}

export type Row<C extends string> = Readonly<Record<C, unknown>>;

/** A primary key: its value for a one-column key, else its values in key order. */
export type Key = unknown;

const SEP = '\u0000';

/** A row's place: its group (first key column, as text) and the rest of its key (joined). */
function keyParts(key: Key, width: number): [string, string] {
  if (width === 1) return [String(key), ''];
  const k = key as readonly unknown[];
  let rest = String(k[1]);
  for (let i = 2; i < width; i++) rest += SEP + String(k[i]);
  return [String(k[0]), rest];
}

/**
 * One table's rows. `base` holds the rows loaded from Postgres (live) and is never changed; `rows` holds
 * what the read model wrote over it (a row, or null for a row deleted). In replay there is no base and
 * every group is known; live, reading a group that was not loaded records a miss (the runtime loads it
 * and runs the batch again) and finds nothing.
 */
export class RowTable<C extends string = string> {
  private readonly base = new Map<string, Map<string, Row<C>>>();
  private rows = new Map<string, Map<string, Record<C, unknown> | null>>();
  /** Groups loaded (live); null: every group is held (replay). */
  private readonly loaded: Set<string> | null;
  /** Groups read but not loaded, since the last reset (live). */
  readonly misses = new Set<string>();
  /** Keys (group, rest) of base rows deleted since the last reset: deleted before the rows are written. */
  private deletedFromBase = new Map<string, Set<string>>();
  private readonly width: number;
  /** The lookup column's values → the keys (group, rest) of rows that held them (a superset: checked on read). */
  private readonly byLookup = new Map<string, Set<string>>();
  /** Lookup values loaded (live). */
  private readonly lookupsLoaded = new Set<string>();
  /** Lookup values read but not loaded, since the last reset (live). */
  readonly lookupMisses = new Set<string>();

  constructor(
    readonly declaration: TableDeclaration<C>,
    mode: 'memory' | 'live',
  ) {
    this.width = declaration.key.length;
    this.loaded = mode === 'live' ? new Set() : null;
  }

  get table(): string {
    return this.declaration.table;
  }

  private known(group: string): boolean {
    if (this.loaded === null || this.loaded.has(group)) return true;
    this.misses.add(group);
    return false;
  }

  private keyOf(row: Row<C>): [string, string] {
    const k = this.declaration.key;
    if (this.width === 1) return [String(row[k[0]!]), ''];
    return keyParts(
      k.map((c) => row[c]),
      this.width,
    );
  }

  private find(group: string, rest: string): Row<C> | undefined {
    if (!this.known(group)) return undefined;
    const mine = this.rows.get(group)?.get(rest);
    if (mine !== undefined) return mine ?? undefined;
    return this.base.get(group)?.get(rest);
  }

  /** The row at `key`, or undefined. */
  get(key: Key): Row<C> | undefined {
    const [g, r] = keyParts(key, this.width);
    return this.find(g, r);
  }

  has(key: Key): boolean {
    return this.get(key) !== undefined;
  }

  /** The rows whose first key column is `first`, in no set order. */
  rowsOf(first: unknown): Row<C>[] {
    const group = String(first);
    if (!this.known(group)) return [];
    const out: Row<C>[] = [];
    const mine = this.rows.get(group);
    const base = this.base.get(group);
    if (base) for (const [rest, row] of base) if (!mine?.has(rest)) out.push(row);
    if (mine) for (const row of mine.values()) if (row) out.push(row);
    return out;
  }

  /** A lookup value as compared: lower-cased for a `lower` lookup. */
  private lookupValue(v: unknown): string {
    return this.declaration.lookup?.lower ? String(v).toLowerCase() : String(v);
  }

  /**
   * UPDATE/DELETE ... WHERE lookup column = value (lower(column) = lower(value) for a `lower` lookup): the
   * rows that match now.
   */
  rowsWhere(value: unknown): Row<C>[] {
    const column = this.declaration.lookup?.column;
    if (!column) throw new Error(`${this.table} declares no lookup column`);
    const wanted = this.lookupValue(value);
    if (this.loaded !== null && !this.lookupsLoaded.has(wanted)) {
      this.lookupMisses.add(wanted);
      return [];
    }
    const out: Row<C>[] = [];
    for (const at of this.byLookup.get(wanted) ?? []) {
      const i = at.indexOf(SEP);
      const row = this.find(at.slice(0, i), at.slice(i + 1));
      if (row && row[column] !== null && this.lookupValue(row[column]) === wanted) out.push(row);
    }
    return out;
  }

  private indexLookup(group: string, rest: string, row: Row<C> | null): void {
    const column = this.declaration.lookup?.column;
    if (!column || !row || row[column] === null || row[column] === undefined) return;
    const v = this.lookupValue(row[column]);
    let keys = this.byLookup.get(v);
    if (!keys) this.byLookup.set(v, (keys = new Set()));
    keys.add(group + SEP + rest);
  }

  private set(group: string, rest: string, row: Record<C, unknown> | null): void {
    this.indexLookup(group, rest, row);
    let g = this.rows.get(group);
    if (!g) this.rows.set(group, (g = new Map()));
    g.set(rest, row);
  }

  private fresh(row: Row<C>): Record<C, unknown> {
    const out = {} as Record<C, unknown>;
    for (const c of this.declaration.columns) out[c] = row[c] === undefined ? null : row[c];
    return out;
  }

  /** INSERT ... ON CONFLICT DO NOTHING: answers whether it added the row. */
  insert(row: Row<C>): boolean {
    const [g, r] = this.keyOf(row);
    if (this.find(g, r) !== undefined) return false;
    this.set(g, r, this.fresh(row));
    return true;
  }

  /** INSERT ... ON CONFLICT DO UPDATE of every column: the row, in the place of any held at its key. */
  put(row: Row<C>): void {
    const [g, r] = this.keyOf(row);
    this.known(g);
    this.set(g, r, this.fresh(row));
  }

  /** A row of this attempt's own to change: the one written, or a copy of the base's. */
  private writable(key: Key): Record<C, unknown> | undefined {
    const [g, r] = keyParts(key, this.width);
    const current = this.find(g, r);
    if (current === undefined) return undefined;
    const mine = this.rows.get(g)?.get(r);
    if (mine) return mine;
    const copy = { ...current } as Record<C, unknown>;
    this.set(g, r, copy);
    return copy;
  }

  /** UPDATE ... SET column = value, ... WHERE key: answers whether there was a row. */
  update(key: Key, changes: Partial<Record<C, unknown>>): boolean {
    const row = this.writable(key);
    if (!row) return false;
    for (const column in changes) {
      if (!(column in row)) throw new Error(`${this.table} has no column ${column} in its read model`);
      row[column] = changes[column];
    }
    if (this.declaration.lookup && this.declaration.lookup.column in changes)
      this.indexLookup(...keyParts(key, this.width), row);
    return true;
  }

  /** UPDATE ... SET column = column + by WHERE key (a numeric column): answers whether there was a row. */
  add(key: Key, column: C, by: number): boolean {
    const row = this.writable(key);
    if (!row) return false;
    row[column] = (row[column] as number) + by;
    return true;
  }

  /** DELETE ... WHERE key: answers whether there was a row. */
  delete(key: Key): boolean {
    const [g, r] = keyParts(key, this.width);
    return this.remove(g, r);
  }

  /** DELETE ... WHERE first key column = `first`: answers how many rows went. */
  deleteRowsOf(first: unknown): number {
    const rows = this.rowsOf(first);
    for (const row of rows) {
      const [g, r] = this.keyOf(row);
      this.remove(g, r);
    }
    return rows.length;
  }

  private remove(group: string, rest: string): boolean {
    if (this.find(group, rest) === undefined) return false;
    if (this.base.get(group)?.has(rest)) {
      this.set(group, rest, null);
      let d = this.deletedFromBase.get(group);
      if (!d) this.deletedFromBase.set(group, (d = new Set()));
      d.add(rest);
    } else this.rows.get(group)!.delete(rest);
    return true;
  }

  // Live mode's side: loading groups, starting an attempt over, and what to write back.

  /**
   * Holds the rows of groups loaded from Postgres (every row of each group given), or of lookup values
   * (every row whose lookup column has one of them; with a one-column key, each row is its own group).
   */
  load(groups: Iterable<string>, rows: Iterable<Row<C>>, lookups: Iterable<string> = []): void {
    for (const g of groups) this.loaded!.add(g);
    for (const v of lookups) this.lookupsLoaded.add(v);
    for (const row of rows) {
      const [g, r] = this.keyOf(row);
      if (this.width === 1) this.loaded!.add(g);
      let m = this.base.get(g);
      if (!m) this.base.set(g, (m = new Map()));
      if (!m.has(r)) m.set(r, row);
      this.indexLookup(g, r, row);
    }
  }

  /** Forgets what the read model wrote (and the misses), keeping what was loaded. */
  reset(): void {
    this.rows = new Map();
    this.deletedFromBase = new Map();
    this.misses.clear();
    this.lookupMisses.clear();
  }

  /** Key values (in key order) of the base rows deleted, and the rows written (changed or new). */
  changes(): { deleted: unknown[][]; written: Row<C>[] } {
    const deleted: unknown[][] = [];
    for (const [g, rests] of this.deletedFromBase)
      for (const r of rests) {
        const row = this.base.get(g)!.get(r)!;
        deleted.push(this.declaration.key.map((c) => row[c]));
      }
    const written: Row<C>[] = [];
    for (const g of this.rows.values()) for (const row of g.values()) if (row) written.push(row);
    return { deleted, written };
  }

  /** Every row held, in column order (replay: what is copied into the shadow table). */
  *values(): Iterable<unknown[]> {
    const columns = this.declaration.columns;
    for (const [g, rows] of this.rows)
      for (const [r, row] of rows) {
        if (!row && !this.base.get(g)?.has(r)) continue;
        if (row) yield columns.map((c) => row[c]);
      }
    for (const [g, rows] of this.base) {
      const mine = this.rows.get(g);
      for (const [r, row] of rows) if (!mine?.has(r)) yield columns.map((c) => row[c]);
    }
  }
}
