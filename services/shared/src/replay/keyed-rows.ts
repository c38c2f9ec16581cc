import type { FoldedState, FoldedTable } from './fold.ts';

/** A row: by column, or its values in column order (an array given is kept as the row: give a fresh one). */
export type RowValues<C extends string> = Readonly<Record<C, unknown>> | readonly unknown[];

/**
 * One table's rows as a replay fold holds them: one row per key (its primary key; several key columns
 * joined into one string), each row its values in column order, with the statements a projection's
 * handler runs on the table. Rows keep the order they were first inserted in.
 */
export class KeyedRows<C extends string> implements FoldedState {
  private readonly rows = new Map<string, unknown[]>();
  /** column → its place in a row. */
  private readonly index: Record<string, number> = Object.create(null) as Record<string, number>;

  /** `table`: the live table, schema-qualified; `columns`: those the fold fills (others take their defaults). */
  constructor(
    readonly table: string,
    readonly columns: readonly C[],
  ) {
    columns.forEach((c, i) => (this.index[c] = i));
  }

  has(key: string): boolean {
    return this.rows.has(key);
  }

  /** A column's value in the row at `key` (undefined when there is none). */
  get(key: string, column: C): unknown {
    return this.rows.get(key)?.[this.at(column)];
  }

  /** INSERT ... ON CONFLICT DO NOTHING: adds the row unless one is held at its key; answers whether it did. */
  insert(key: string, row: RowValues<C>): boolean {
    if (this.rows.has(key)) return false;
    this.rows.set(key, this.values(row));
    return true;
  }

  /** INSERT ... ON CONFLICT DO UPDATE of every column: the row, in the place of any held at its key. */
  put(key: string, row: RowValues<C>): void {
    this.rows.set(key, this.values(row));
  }

  /** UPDATE ... SET column = value, ... WHERE key: answers whether there was a row. */
  update(key: string, changes: Partial<Record<C, unknown>>): boolean {
    const row = this.rows.get(key);
    if (!row) return false;
    for (const column in changes) row[this.at(column)] = changes[column];
    return true;
  }

  /**
   * UPDATE ... SET columns[0] = values[0], ... WHERE key (columns named at run time, a column the fold does
   * not hold throws): answers whether there was a row.
   */
  updateColumns(key: string, columns: readonly string[], values: readonly unknown[]): boolean {
    const row = this.rows.get(key);
    if (!row) return false;
    columns.forEach((column, i) => (row[this.at(column)] = values[i]));
    return true;
  }

  /** UPDATE ... SET column = column + by WHERE key (a numeric column): answers whether there was a row. */
  add(key: string, column: C, by: number): boolean {
    const row = this.rows.get(key);
    if (!row) return false;
    const i = this.at(column);
    row[i] = (row[i] as number) + by;
    return true;
  }

  /** DELETE ... WHERE key: answers whether there was a row. */
  delete(key: string): boolean {
    return this.rows.delete(key);
  }

  folded(): FoldedTable {
    return { table: this.table, columns: this.columns, rows: this.rows.values() };
  }

  private at(column: string): number {
    const i = this.index[column];
    if (i === undefined) throw new Error(`${this.table} has no column ${column} in its fold`);
    return i;
  }

  private values(row: RowValues<C>): unknown[] {
    if (!Array.isArray(row)) return this.columns.map((c) => (row as Readonly<Record<C, unknown>>)[c]);
    if (row.length !== this.columns.length)
      throw new Error(`${this.table}: a row of ${row.length} values for ${this.columns.length} columns`);
    return row as unknown[];
  }
}
