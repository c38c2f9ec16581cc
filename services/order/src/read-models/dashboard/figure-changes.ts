import { FIGURE_CHANGED, type FigureChanged } from '../../push/dashboard-changes.ts';

/** A dashboard count moved when the statement changed exactly one row: the event's after-commit effect. */
export const figureIf = (result: { rowCount: number | null }): FigureChanged | undefined =>
  result.rowCount === 1 ? FIGURE_CHANGED : undefined;
