import type { ReactNode } from 'react';
import styles from './data-table.module.css';

/** A column: its name (the header, and the label beside each value on a phone) and what a row shows in it. */
export type Column<T> = { label: string; cell: (row: T) => ReactNode };

type DataTableProps<T> = {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** Names the scrolling box and makes it focusable, so a keyboard can scroll it. */
  regionLabel?: string;
  /** Values that each fit on one line (they do not wrap on a wide screen). */
  oneLine?: boolean;
  /** Another look for the box and the table (a CSS module's classes) instead of the shared one. */
  classes?: { wrap?: string; table?: string };
};

/**
 * A table of rows with a column each, labelled once: the header and each cell's data-label come from `columns`.
 * A cell's value is one box, whatever it holds (ids over two lines, a pill and a note), so on a phone it stands
 * beside its label and wraps within the card instead of running off its right edge.
 */
export function DataTable<T>({ columns, rows, rowKey, regionLabel, oneLine = false, classes }: DataTableProps<T>) {
  const wrap = classes?.wrap ?? styles.wrap;
  const table = classes?.table ?? (oneLine ? `${styles.table} ${styles.oneLine}` : styles.table);
  const region = regionLabel ? { role: 'region', 'aria-label': regionLabel, tabIndex: 0 } : {};
  return (
    <div className={wrap} {...region}>
      <table className={table}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.label} data-label={column.label}>
                  <div className={styles.value}>{column.cell(row)}</div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
