import type { Pool } from 'pg';
import { readHistory } from '@shop/shared/audit/history-reader';
import type { AccountsHistoryPort } from '@shop/shared/contracts/event-history';
import { emailStreamId, userStreamId } from '../user/events.ts';

const SCHEMA = 'accounts';

/** The accounts service's part of histories, read from its own log. */
export function accountsHistory(pool: Pool): AccountsHistoryPort {
  return {
    async user(email) {
      const claims = await readHistory(pool, SCHEMA, `stream_id = $1 AND type = 'EmailClaimed'`, [
        emailStreamId(email),
      ]);
      const userIds = [...new Set(claims.map((c) => (c.data as { userId: string }).userId))];
      if (userIds.length === 0) return { userIds, events: [] };
      const events = await readHistory(
        pool,
        SCHEMA,
        `stream_id = ANY($1) OR stream_id IN (SELECT DISTINCT stream_id FROM accounts.events
           WHERE (type IN ('EmailClaimed', 'EmailReleased') OR type LIKE 'Testimonial%') AND data->>'userId' = ANY($2))`,
        [userIds.map(userStreamId), userIds],
      );
      return { userIds, events };
    },
  };
}
