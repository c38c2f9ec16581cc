const indiaDateTime = new Intl.DateTimeFormat('en-IN', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Asia/Kolkata',
});

/** A time in India time, e.g. '22 Nov 2026, 3:30 pm IST'; '—' for none. */
export function formatIndiaTime(iso: string | null): string {
  if (!iso) return '—';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : `${indiaDateTime.format(at)} IST`;
}
