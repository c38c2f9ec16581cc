import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@shop/test-support/given-when-then';
import { decideTestimonial, evolveTestimonial, initialTestimonialState, type TestimonialCommand } from './decider.ts';
import type { TestimonialEvent } from './events.ts';

const now = new Date('2026-11-22T10:00:00Z');
const given = deciderSpec({
  decide: decideTestimonial,
  evolve: evolveTestimonial,
  initialState: initialTestimonialState,
});
const submit = (data: { rating?: number; text?: string } = {}): TestimonialCommand => ({
  type: 'SubmitTestimonial',
  data: { testimonialId: 't1', userId: 'u1', rating: data.rating ?? 5, text: data.text ?? 'Lovely kurta', now },
});
const submitted: TestimonialEvent = {
  type: 'TestimonialSubmitted',
  data: { testimonialId: 't1', userId: 'u1', rating: 4, text: 'Lovely kurta', submittedAt: now.toISOString() },
};
const moderate = (to: 'pending' | 'approved' | 'rejected'): TestimonialCommand => ({
  type: 'ModerateTestimonial',
  data: { to, by: 'admin', now },
});
const approved: TestimonialEvent = {
  type: 'TestimonialModerated',
  data: { testimonialId: 't1', from: 'pending', to: 'approved', by: 'admin', at: now.toISOString() },
};
const deleted: TestimonialEvent = {
  type: 'TestimonialDeleted',
  data: { testimonialId: 't1', by: 'admin', at: now.toISOString() },
};

describe('testimonial decider', () => {
  it('records a submitted review with its text trimmed; it starts pending', () => {
    const events = given([])
      .when(submit({ rating: 4, text: '  Lovely kurta \n' }))
      .events();
    expect(events).toEqual([
      {
        type: 'TestimonialSubmitted',
        data: { testimonialId: 't1', userId: 'u1', rating: 4, text: 'Lovely kurta', submittedAt: now.toISOString() },
      },
    ]);
    expect(given(events).state()).toMatchObject({ status: 'submitted', moderation: 'pending' });
  });

  it("refuses blank text with the seed's message 'Please enter your review text'", () => {
    given([])
      .when(submit({ text: ' \t ' }))
      .then('Please enter your review text');
    given([])
      .when(submit({ text: 'x'.repeat(2001) }))
      .then(/at most 2000/);
  });

  it('accepts whole ratings 1 to 5 only', () => {
    for (const rating of [1, 5]) expect(given([]).when(submit({ rating })).events()).toHaveLength(1);
    for (const rating of [0, 6, 4.5, Number.NaN])
      given([]).when(submit({ rating })).then('Rating must be a whole number from 1 to 5');
  });

  it('moderates from the current status, and setting the same status again records nothing', () => {
    given([submitted]).when(moderate('approved')).then([approved]);
    given([submitted, approved]).when(moderate('approved')).then([]);
    given([submitted, approved])
      .when(moderate('rejected'))
      .thenMatches([{ type: 'TestimonialModerated', data: { from: 'approved', to: 'rejected' } }]);
  });

  it('deletes once; a deleted or unknown review is not found for moderation or deletion', () => {
    given([submitted])
      .when({ type: 'DeleteTestimonial', data: { by: 'admin', now } })
      .then([deleted]);
    for (const history of [[], [submitted, deleted]]) {
      given(history).when(moderate('approved')).then('Testimonial not found');
      given(history)
        .when({ type: 'DeleteTestimonial', data: { by: 'admin', now } })
        .then('Testimonial not found');
    }
  });
});
