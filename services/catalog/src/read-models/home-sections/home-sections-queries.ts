import type pg from 'pg';
import type { HomeSectionDetails } from '../../home-section/events.ts';

/** A homepage section as the API answers it. */
export interface HomeSectionView extends HomeSectionDetails {
  id: string;
  createdAt: string;
  updatedAt: string;
}

const SELECT = `SELECT id, name, content_type, content_ids, text_style, text_color, background_color, text_size,
  display_order, is_active, created_at, updated_at FROM catalog.home_sections`;

interface Row {
  id: string;
  name: string;
  content_type: HomeSectionDetails['contentType'];
  content_ids: string[];
  text_style: HomeSectionDetails['textStyle'];
  text_color: string;
  background_color: string;
  text_size: HomeSectionDetails['textSize'];
  display_order: number;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

const toView = (r: Row): HomeSectionView => ({
  id: r.id,
  name: r.name,
  contentType: r.content_type,
  contentIds: r.content_ids,
  textStyle: r.text_style,
  textColor: r.text_color,
  backgroundColor: r.background_color,
  textSize: r.text_size,
  displayOrder: r.display_order,
  isActive: r.is_active,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** Sections in display order (ties: oldest first); inactive ones only when asked (admins). */
export async function listHomeSections(db: pg.Pool, opts: { includeInactive: boolean }): Promise<HomeSectionView[]> {
  const { rows } = await db.query<Row>(
    `${SELECT} ${opts.includeInactive ? '' : 'WHERE is_active'} ORDER BY display_order, created_at, id`,
  );
  return rows.map(toView);
}

export async function findHomeSection(db: pg.Pool, id: string): Promise<HomeSectionView | null> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE id = $1`, [id]);
  return rows[0] ? toView(rows[0]) : null;
}
