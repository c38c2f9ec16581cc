import { randomUUID } from 'node:crypto';
import { decideAndAppend } from '@shop/shared/eventstore/command';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { decideTestimonial, evolveTestimonial, initialTestimonialState, type TestimonialCommand } from './decider.ts';
import { testimonialStreamId, type TestimonialStatus } from './events.ts';

const TESTIMONIAL = { initialState: initialTestimonialState, evolve: evolveTestimonial, decide: decideTestimonial };

/** Application service: testimonial commands against the accounts event store. Returns stream versions. */
export class Testimonials {
  constructor(
    private readonly store: PostgresEventStore,
    private readonly clock: () => Date,
  ) {}

  async submit(input: {
    userId: string;
    rating: number;
    text: string;
  }): Promise<{ testimonialId: string; version: number }> {
    const testimonialId = randomUUID();
    const version = await this.run(testimonialId, input.userId, {
      type: 'SubmitTestimonial',
      data: { testimonialId, ...input, now: this.clock() },
    });
    return { testimonialId, version };
  }

  moderate(testimonialId: string, to: TestimonialStatus, by: string): Promise<number> {
    return this.run(testimonialId, by, { type: 'ModerateTestimonial', data: { to, by, now: this.clock() } });
  }

  delete(testimonialId: string, by: string): Promise<number> {
    return this.run(testimonialId, by, { type: 'DeleteTestimonial', data: { by, now: this.clock() } });
  }

  private run(testimonialId: string, actor: string, command: TestimonialCommand): Promise<number> {
    return decideAndAppend(this.store, testimonialStreamId(testimonialId), TESTIMONIAL, () => command, actor);
  }
}
