import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { SelectField, TextAreaField } from '@/components/form/text-field';
import { failureShown, notificationShown } from '@/components/notifications/notifications-slice';
import { StarIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { useGetTestimonialsQuery, useSubmitTestimonialMutation } from '../api/home-api';
import {
  DEFAULT_RATING,
  RATINGS,
  REVIEW_FAILED_TITLE,
  starsFor,
  testimonialPayload,
  testimonialProblem,
} from '../testimonial-rules';
import styles from './home.module.css';

// The server's words for a review that now waits for approval, used if its answer carries none.
const SUBMITTED_MESSAGE = 'Thank you for your review! It will appear once it has been approved.';

function Stars({ rating }: { rating: number }) {
  return (
    <p className={styles.stars} role="img" aria-label={`Rated ${rating} out of 5`}>
      {starsFor(rating).map((filled, index) => (
        <StarIcon key={index} width={16} height={16} className={filled ? styles.starFilled : styles.starEmpty} />
      ))}
    </p>
  );
}

/** The rating and text form; a logged-out visitor is asked to log in instead. */
function TestimonialForm({ isLoggedIn, loginHref }: { isLoggedIn: boolean; loginHref: string }) {
  const dispatch = useAppDispatch();
  const [submit, { isLoading }] = useSubmitTestimonialMutation();
  const [rating, setRating] = useState(DEFAULT_RATING);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);

  if (!isLoggedIn) {
    return (
      <p className={styles.reviewLogin}>
        Please login to submit a review{' '}
        <Link to={loginHref} className="btn btn-outline btn-sm">
          Login
        </Link>
      </p>
    );
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const draft = { rating, text };
    const problem = testimonialProblem(draft, isLoggedIn);
    setError(problem);
    if (problem) {
      dispatch(notificationShown({ type: 'error', message: problem }));
      return;
    }
    try {
      const answer = await submit(testimonialPayload(draft)).unwrap();
      dispatch(notificationShown({ type: 'success', message: answer.message || SUBMITTED_MESSAGE }));
      setText('');
      setRating(DEFAULT_RATING);
    } catch (failure) {
      dispatch(failureShown(REVIEW_FAILED_TITLE, failure));
    }
  };

  return (
    <form className={styles.reviewForm} onSubmit={(event) => void onSubmit(event)} noValidate>
      <h3 className={styles.reviewFormTitle}>Share your experience</h3>
      <SelectField label="Rating" value={rating} onChange={(event) => setRating(Number(event.target.value))}>
        {RATINGS.map((value) => (
          <option key={value} value={value}>
            {`${value} star${value === 1 ? '' : 's'}`}
          </option>
        ))}
      </SelectField>
      <TextAreaField
        label="Your review"
        rows={4}
        value={text}
        error={error}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="btn btn-primary" disabled={isLoading}>
        {isLoading ? 'Submitting...' : 'Submit Review'}
      </button>
    </form>
  );
}

/** Approved testimonials (rating, text, author) and the form to add one; a failed load shows the empty state. */
export function TestimonialsSection({ isLoggedIn, loginHref }: { isLoggedIn: boolean; loginHref: string }) {
  const { data: testimonials = [], isLoading } = useGetTestimonialsQuery();
  return (
    <section className={`container ${styles.testimonials}`} aria-labelledby="testimonials-heading">
      <h2 id="testimonials-heading" className={styles.sectionTitle}>
        Testimonials
      </h2>
      {isLoading ? (
        <Spinner label="Loading testimonials..." />
      ) : testimonials.length === 0 ? (
        <p className="empty-state">No testimonials yet.</p>
      ) : (
        <ul className={styles.testimonialList}>
          {testimonials.map((testimonial) => (
            <li key={testimonial.id}>
              <figure className={styles.testimonial}>
                <Stars rating={testimonial.rating} />
                <blockquote className={styles.testimonialText}>{testimonial.text}</blockquote>
                {testimonial.authorName ? (
                  <figcaption className={styles.testimonialAuthor}>{testimonial.authorName}</figcaption>
                ) : null}
              </figure>
            </li>
          ))}
        </ul>
      )}
      <TestimonialForm isLoggedIn={isLoggedIn} loginHref={loginHref} />
    </section>
  );
}
