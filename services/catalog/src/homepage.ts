import { retryOnConflict } from '@shop/shared/eventstore/command';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { decideHomepage, evolveHomepage, initialHomepageState, type HomepageState } from './homepage/decider.ts';
import { HOMEPAGE_STREAM, type CarouselSlide, type HomepageEvent } from './homepage/events.ts';

/** Application service: home page configuration commands against the catalog event store. */
export class Homepage {
  constructor(
    private readonly store: PostgresEventStore,
    private readonly clock: () => Date,
  ) {}

  /** Saves the carousel and/or sections (a part left out keeps its value). Returns the stream version (0: never saved). */
  async configure(
    input: { carousel?: CarouselSlide[]; sections?: { value: unknown } },
    actor: string,
  ): Promise<number> {
    return retryOnConflict(async () => {
      const { state, version } = await this.store.aggregate<HomepageState, HomepageEvent>(
        HOMEPAGE_STREAM,
        evolveHomepage,
        initialHomepageState(),
      );
      const events = decideHomepage({ type: 'ConfigureHomepage', data: { ...input, now: this.clock() } }, state);
      if (!events.length) return version;
      const r = await this.store.append(HOMEPAGE_STREAM, version, events, { metadata: { actor } });
      return r.nextExpectedVersion;
    });
  }
}
