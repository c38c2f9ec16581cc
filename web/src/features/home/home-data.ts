import { isPlainRecord, parseProductList, type Product } from '@/types/api';

// What the homepage reads from the API, parsed leniently by hand (no schema library: the homepage is the
// storefront's landing page). Entries that cannot be shown are dropped rather than failing the page.

export type CarouselSlide = {
  name: string;
  /** Rupees. */
  price: number;
  image: string | null;
  lining: string;
  size: string;
  height: string;
};

export type Collection = { id: string | number; name: string; description: string; image: string | null };

export type Testimonial = { id: string | number; rating: number; text: string; authorName: string };

export type HomeSection = {
  id: string | number;
  name: string;
  contentType: 'products' | 'collections';
  contentIds: Array<string | number>;
  textStyle: string;
  textColor: string | null;
  backgroundColor: string | null;
  textSize: string;
  displayOrder: number;
};

export type SectionContent =
  { contentType: 'products'; products: Product[] } | { contentType: 'collections'; collections: Collection[] };

function listOf<T>(raw: unknown, read: (item: Record<string, unknown>) => T | null): T[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item) => {
    const value = isPlainRecord(item) ? read(item) : null;
    return value === null ? [] : [value];
  });
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

function idOf(value: unknown): string | number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim()) return value;
  return null;
}

function numberOf(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

/** GET /home: the carousel slides (an empty list until an admin saves one). */
export function parseCarousel(raw: unknown): CarouselSlide[] {
  const carousel = isPlainRecord(raw) ? raw.carousel : undefined;
  return listOf(carousel, (slide) => {
    const price = numberOf(slide.price);
    const name = textOf(slide.name).trim();
    if (!name && price === null) return null;
    return {
      name,
      price: price ?? 0,
      image: textOf(slide.image) || null,
      lining: textOf(slide.lining),
      size: textOf(slide.size),
      height: textOf(slide.height),
    };
  });
}

function readCollection(item: Record<string, unknown>): Collection | null {
  const id = idOf(item.id);
  const name = textOf(item.name);
  if (id === null || !name) return null;
  return { id, name, description: textOf(item.description), image: textOf(item.image) || null };
}

/** GET /collections, or a collections section's content. */
export function parseCollections(raw: unknown): Collection[] {
  return listOf(raw, readCollection);
}

/** GET /testimonials: approved reviews with their author's name (User.name). */
export function parseTestimonials(raw: unknown): Testimonial[] {
  return listOf(raw, (item) => {
    const id = idOf(item.id);
    const text = textOf(item.text).trim();
    if (id === null || !text) return null;
    const rating = numberOf(item.rating) ?? 5;
    const author = isPlainRecord(item.User) ? textOf(item.User.name) : '';
    return { id, rating: Math.min(5, Math.max(1, Math.round(rating))), text, authorName: author.trim() };
  });
}

/** GET /home/sections: the active sections, shown by display order. */
export function parseHomeSections(raw: unknown): HomeSection[] {
  const sections = listOf(raw, (item): HomeSection | null => {
    const id = idOf(item.id);
    if (id === null) return null;
    const contentIds = Array.isArray(item.contentIds)
      ? item.contentIds.flatMap((contentId) => {
          const value = idOf(contentId);
          return value === null ? [] : [value];
        })
      : [];
    return {
      id,
      name: textOf(item.name),
      contentType: item.contentType === 'collections' ? 'collections' : 'products',
      contentIds,
      textStyle: textOf(item.textStyle) || 'default',
      textColor: textOf(item.textColor) || null,
      backgroundColor: textOf(item.backgroundColor) || null,
      textSize: textOf(item.textSize) || 'normal',
      displayOrder: numberOf(item.displayOrder) ?? 0,
    };
  });
  return sections
    .map((section, index) => ({ section, index }))
    .sort((a, b) => a.section.displayOrder - b.section.displayOrder || a.index - b.index)
    .map(({ section }) => section);
}

/** GET /home/sections/{id}/content: `{content: [...]}` of products or collections, as the section's type says. */
export function parseSectionContent(raw: unknown, contentType: HomeSection['contentType']): SectionContent {
  const content = isPlainRecord(raw) ? raw.content : undefined;
  return contentType === 'collections'
    ? { contentType, collections: parseCollections(content) }
    : { contentType, products: parseProductList(content).filter((product) => !product.isDelisted) };
}
