import { randomUUID } from 'node:crypto';
import { decideAndAppend } from '@shop/shared/eventstore/command';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import type { Written } from '../product/catalog.ts';
import {
  decideHomeSection,
  evolveHomeSection,
  initialHomeSectionState,
  type HomeSectionCommand,
} from './decider.ts';
import { homeSectionStreamId, type HomeSectionDetails } from './events.ts';

const HOME_SECTION = { initialState: initialHomeSectionState, evolve: evolveHomeSection, decide: decideHomeSection };

/** Application service: homepage section commands against the catalog event store. */
export class HomeSections {
  constructor(
    private readonly store: PostgresEventStore,
    private readonly clock: () => Date,
  ) {}

  async create(details: HomeSectionDetails, actor?: string): Promise<{ sectionId: string; written: Written }> {
    const sectionId = randomUUID();
    const written = await this.run(
      sectionId,
      { type: 'CreateHomeSection', data: { sectionId, details, now: this.clock() } },
      actor,
    );
    return { sectionId, written };
  }

  change(sectionId: string, changes: Partial<HomeSectionDetails>, actor?: string): Promise<Written> {
    return this.run(sectionId, { type: 'ChangeHomeSection', data: { changes, now: this.clock() } }, actor);
  }

  remove(sectionId: string, actor?: string): Promise<Written> {
    return this.run(sectionId, { type: 'DeleteHomeSection', data: { now: this.clock() } }, actor);
  }

  /** Read-decide-append on one section stream, retried on a version conflict. */
  private async run(sectionId: string, command: HomeSectionCommand, actor?: string): Promise<Written> {
    const streamId = homeSectionStreamId(sectionId);
    return [{ streamId, version: await decideAndAppend(this.store, streamId, HOME_SECTION, () => command, actor) }];
  }
}
