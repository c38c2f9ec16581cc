import { ConflictError, NotFoundError, ValidationError } from '@shop/shared/errors/errors';
import type { HomeSectionDetails, HomeSectionEvent } from './events.ts';

export type HomeSectionState =
  { status: 'none' } | { status: 'live' | 'deleted'; sectionId: string; details: HomeSectionDetails };

export type HomeSectionCommand =
  | { type: 'CreateHomeSection'; data: { sectionId: string; details: HomeSectionDetails; now: Date } }
  | { type: 'ChangeHomeSection'; data: { changes: Partial<HomeSectionDetails>; now: Date } }
  | { type: 'DeleteHomeSection'; data: { now: Date } };

/** The seed's message for a section without a name or without items. */
export const FILL_SECTION_MESSAGE = 'Please fill name and select at least one item';
export const DISPLAY_ORDER_MESSAGE = 'Display order must be a whole number of 0 or more';

export const initialHomeSectionState = (): HomeSectionState => ({ status: 'none' });

export function evolveHomeSection(state: HomeSectionState, event: HomeSectionEvent): HomeSectionState {
  switch (event.type) {
    case 'HomeSectionCreated': {
      const { sectionId, createdAt: _c, ...details } = event.data;
      return { status: 'live', sectionId, details };
    }
    case 'HomeSectionChanged': {
      if (state.status === 'none') return state;
      const { sectionId: _s, changedAt: _c, ...changes } = event.data;
      return { ...state, details: { ...state.details, ...changes } };
    }
    case 'HomeSectionDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
  }
}

/** Rules every saved section keeps, whatever the form sent. */
function assertValid(d: HomeSectionDetails): void {
  if (!d.name.trim() || d.contentIds.length === 0) throw new ValidationError(FILL_SECTION_MESSAGE);
  if (!Number.isInteger(d.displayOrder) || d.displayOrder < 0) throw new ValidationError(DISPLAY_ORDER_MESSAGE);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function decideHomeSection(command: HomeSectionCommand, state: HomeSectionState): HomeSectionEvent[] {
  switch (command.type) {
    case 'CreateHomeSection': {
      if (state.status !== 'none') throw new ConflictError('Section already exists');
      assertValid(command.data.details);
      return [
        {
          type: 'HomeSectionCreated',
          data: {
            sectionId: command.data.sectionId,
            ...command.data.details,
            createdAt: command.data.now.toISOString(),
          },
        },
      ];
    }
    case 'ChangeHomeSection': {
      if (state.status !== 'live') throw new NotFoundError('Section not found');
      const given = Object.fromEntries(
        Object.entries(command.data.changes).filter(([, v]) => v !== undefined),
      ) as Partial<HomeSectionDetails>;
      // Items belong to one content type: switching type without choosing new items leaves none selected,
      // as the admin form clears its checklist when the type changes.
      if (given.contentType !== undefined && given.contentType !== state.details.contentType && !given.contentIds)
        given.contentIds = [];
      assertValid({ ...state.details, ...given });
      const changes = Object.fromEntries(
        Object.entries(given).filter(([k, v]) => !same(v, state.details[k as keyof HomeSectionDetails])),
      ) as Partial<HomeSectionDetails>;
      if (Object.keys(changes).length === 0) return [];
      return [
        {
          type: 'HomeSectionChanged',
          data: { sectionId: state.sectionId, ...changes, changedAt: command.data.now.toISOString() },
        },
      ];
    }
    case 'DeleteHomeSection': {
      if (state.status !== 'live') throw new NotFoundError('Section not found');
      return [{ type: 'HomeSectionDeleted', data: { sectionId: state.sectionId, at: command.data.now.toISOString() } }];
    }
    default: {
      const never: never = command;
      throw new Error(`Unknown command ${JSON.stringify(never)}`);
    }
  }
}
