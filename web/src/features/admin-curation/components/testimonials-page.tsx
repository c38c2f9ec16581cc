import { useAppDispatch } from '@/app/hooks';
import { notificationShown } from '@/components/notifications/notifications-slice';
import { PageHeader } from '@/components/layout/page-header';
import { LoadedList } from '@/components/ui/loaded-list';
import { StatusPill, type PillTone } from '@/components/ui/status-pill';
import {
  useDeleteTestimonialMutation,
  useGetAdminTestimonialsQuery,
  useSetTestimonialStatusMutation,
  type AdminTestimonial,
  type TestimonialStatus,
} from '../api/curation-api';
import styles from './curation.module.css';

const testimonialTone: Record<TestimonialStatus, PillTone> = {
  pending: 'warning',
  approved: 'success',
  rejected: 'danger',
};

function Stars({ rating }: { rating: number }) {
  const whole = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <span className={styles.stars} role="img" aria-label={`${whole} out of 5 stars`}>
      {'★'.repeat(whole)}
      {'☆'.repeat(5 - whole)}
    </span>
  );
}

/** /admin/testimonials: every review with Approve, Reject and Delete. */
export function TestimonialsPage() {
  const dispatch = useAppDispatch();
  const testimonials = useGetAdminTestimonialsQuery();
  const [setStatus, statusChange] = useSetTestimonialStatusMutation();
  const [deleteTestimonial, deletion] = useDeleteTestimonialMutation();
  const busy = statusChange.isLoading || deletion.isLoading;

  async function moderate(testimonial: AdminTestimonial, status: 'approved' | 'rejected') {
    try {
      await setStatus({ id: testimonial.id, status }).unwrap();
      dispatch(
        notificationShown({
          type: 'success',
          message: status === 'approved' ? 'Testimonial approved' : 'Testimonial rejected',
        }),
      );
    } catch {
      dispatch(
        notificationShown({ type: 'error', message: status === 'approved' ? 'Failed to approve' : 'Failed to reject' }),
      );
    }
  }

  async function remove(testimonial: AdminTestimonial) {
    try {
      await deleteTestimonial(testimonial.id).unwrap();
      dispatch(notificationShown({ type: 'success', message: 'Testimonial deleted' }));
    } catch {
      dispatch(notificationShown({ type: 'error', message: 'Failed to delete' }));
    }
  }

  return (
    <section className="container page">
      <PageHeader title="Testimonials" />
      <LoadedList query={testimonials} error="Failed to load testimonials" empty="No testimonials yet.">
        {(list) => (
          <ul className={styles.list} aria-label="Testimonials">
            {list.map((testimonial) => (
              <li key={testimonial.id} className={styles.card}>
                <div className={`${styles.row} ${styles.between}`}>
                  <Stars rating={testimonial.rating} />
                  <StatusPill tone={testimonialTone[testimonial.status]} className={styles.capitalize}>
                    {testimonial.status}
                  </StatusPill>
                </div>
                <p className={styles.text}>“{testimonial.text}”</p>
                <p className={styles.meta}>
                  {testimonial.User.name || 'Anonymous'}
                  {testimonial.User.email ? ` · ${testimonial.User.email}` : ''}
                  {testimonial.createdAt
                    ? ` · ${new Date(testimonial.createdAt).toLocaleDateString('en-IN', { timeZone: 'Asia/Kolkata' })}`
                    : ''}
                </p>
                <div className={styles.actions}>
                  {testimonial.status === 'approved' ? null : (
                    <button
                      type="button"
                      className="btn btn-primary btn-sm"
                      disabled={busy}
                      onClick={() => void moderate(testimonial, 'approved')}
                    >
                      Approve
                    </button>
                  )}
                  {testimonial.status === 'rejected' ? null : (
                    <button
                      type="button"
                      className="btn btn-outline btn-sm"
                      disabled={busy}
                      onClick={() => void moderate(testimonial, 'rejected')}
                    >
                      Reject
                    </button>
                  )}
                  <button
                    type="button"
                    className={`btn btn-outline btn-sm ${styles.danger}`}
                    disabled={busy}
                    onClick={() => void remove(testimonial)}
                  >
                    Delete
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </LoadedList>
    </section>
  );
}
