import { NotFoundError, ValidationError } from '@shop/shared/errors/errors';
import {
  MAX_RATING,
  MAX_TEXT_LENGTH,
  MIN_RATING,
  type TestimonialEvent,
  type TestimonialStatus,
  type TestimonialSubmitted,
} from './events.ts';

export type TestimonialState =
  | { status: 'none' }
  | { status: 'submitted'; testimonialId: string; userId: string; moderation: TestimonialStatus }
  | { status: 'deleted' };

/** What TestimonialSubmitted records, submitted at `now` (the text as typed: the decider trims it). */
export type SubmitTestimonial = {
  type: 'SubmitTestimonial';
  data: Omit<TestimonialSubmitted['data'], 'submittedAt'> & { now: Date };
};
export type ModerateTestimonial = {
  type: 'ModerateTestimonial';
  data: { to: TestimonialStatus; by: string; now: Date };
};
export type DeleteTestimonial = { type: 'DeleteTestimonial'; data: { by: string; now: Date } };
export type TestimonialCommand = SubmitTestimonial | ModerateTestimonial | DeleteTestimonial;

export const TEXT_REQUIRED_MESSAGE = 'Please enter your review text';
export const RATING_MESSAGE = `Rating must be a whole number from ${MIN_RATING} to ${MAX_RATING}`;

export const initialTestimonialState = (): TestimonialState => ({ status: 'none' });

export function evolveTestimonial(state: TestimonialState, event: TestimonialEvent): TestimonialState {
  switch (event.type) {
    case 'TestimonialSubmitted':
      return {
        status: 'submitted',
        testimonialId: event.data.testimonialId,
        userId: event.data.userId,
        moderation: 'pending',
      };
    case 'TestimonialModerated':
      return state.status === 'submitted' ? { ...state, moderation: event.data.to } : state;
    case 'TestimonialDeleted':
      return { status: 'deleted' };
    default: {
      const never: never = event;
      throw new Error(`Unknown event ${JSON.stringify(never)}`);
    }
  }
}

export function decideTestimonial(command: TestimonialCommand, state: TestimonialState): TestimonialEvent[] {
  switch (command.type) {
    case 'SubmitTestimonial': {
      if (state.status !== 'none') throw new Error(`Testimonial ${command.data.testimonialId} already exists`);
      const { testimonialId, userId, rating, now } = command.data;
      const text = command.data.text.trim();
      if (!text) throw new ValidationError(TEXT_REQUIRED_MESSAGE, [{ path: 'text', message: TEXT_REQUIRED_MESSAGE }]);
      if (text.length > MAX_TEXT_LENGTH) {
        const message = `Your review can have at most ${MAX_TEXT_LENGTH} characters`;
        throw new ValidationError(message, [{ path: 'text', message }]);
      }
      if (!Number.isInteger(rating) || rating < MIN_RATING || rating > MAX_RATING)
        throw new ValidationError(RATING_MESSAGE, [{ path: 'rating', message: RATING_MESSAGE }]);
      return [
        { type: 'TestimonialSubmitted', data: { testimonialId, userId, rating, text, submittedAt: now.toISOString() } },
      ];
    }
    case 'ModerateTestimonial': {
      if (state.status !== 'submitted') throw new NotFoundError('Testimonial not found');
      const { to, by, now } = command.data;
      if (state.moderation === to) return [];
      return [
        {
          type: 'TestimonialModerated',
          data: { testimonialId: state.testimonialId, from: state.moderation, to, by, at: now.toISOString() },
        },
      ];
    }
    case 'DeleteTestimonial': {
      if (state.status !== 'submitted') throw new NotFoundError('Testimonial not found');
      return [
        {
          type: 'TestimonialDeleted',
          data: { testimonialId: state.testimonialId, by: command.data.by, at: command.data.now.toISOString() },
        },
      ];
    }
    default: {
      const never: never = command;
      throw new Error(`Unknown command ${JSON.stringify(never)}`);
    }
  }
}
