import { errorMessage } from '@/lib/api-client';

/** Why a save was refused: the seeds' title ('Failed to save') and, when the server gave one, its reason. */
export type SaveFailure = { title: string; reason?: string };

/** The failure of a save from its `unwrap()` rejection; `withReason: false` for screens whose seed shows the title alone. */
export function saveFailure(title: string, error: unknown, { withReason = true } = {}): SaveFailure {
  const reason = withReason ? errorMessage(error, title) : title;
  return reason === title ? { title } : { title, reason };
}

/**
 * A refused save, shown inside the form beside the values the admin typed (which the form keeps), so the
 * reason stays in view after the notice has gone.
 */
export function FormFailure({ failure }: { failure: SaveFailure | null }) {
  if (!failure) return null;
  return (
    <div className="form-failure" role="alert">
      <strong>{failure.title}</strong>
      {failure.reason ? <span>{failure.reason}</span> : null}
    </div>
  );
}
