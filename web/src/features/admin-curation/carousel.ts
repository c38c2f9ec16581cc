import type { CarouselSlide } from './api/curation-api';

/** A slide as the form holds it: text fields, plus a picked image file not yet uploaded. */
export type SlideFormValues = {
  key: string;
  name: string;
  price: string;
  lining: string;
  size: string;
  height: string;
  image: string;
  file: File | null;
};

let nextKey = 0;
const newKey = () => `slide-${(nextKey += 1)}`;

export function slideToForm(slide: CarouselSlide): SlideFormValues {
  return {
    key: newKey(),
    name: slide.name,
    price: slide.price.toFixed(2),
    lining: slide.lining,
    size: slide.size,
    height: slide.height,
    image: slide.image,
    file: null,
  };
}

export function emptySlide(): SlideFormValues {
  return { key: newKey(), name: '', price: '', lining: '', size: '', height: '', image: '', file: null };
}

/**
 * The PUT /api/home form: `carousel` as JSON (price a number, the image URL kept), `sections` as JSON when
 * the saved config had them, and each picked file as image<N> for slide N.
 */
export function homepageFormData(slides: SlideFormValues[], sections?: unknown): FormData {
  const form = new FormData();
  const carousel = slides.map((slide) => ({
    name: slide.name.trim(),
    price: slide.price.trim() === '' ? '' : Number(slide.price),
    lining: slide.lining.trim(),
    size: slide.size.trim(),
    height: slide.height.trim(),
    image: slide.image.trim(),
  }));
  form.append('carousel', JSON.stringify(carousel));
  if (sections !== undefined) form.append('sections', JSON.stringify(sections));
  slides.forEach((slide, index) => {
    if (slide.file) form.append(`image${index}`, slide.file);
  });
  return form;
}

/** The slide fields the server checks, so the browser can say what it would refuse before sending. */
export type SlideField = 'name' | 'price' | 'image';
export type SlideMessages = Partial<Record<SlideField, string>>;

// The catalog service's limits (services/catalog/src/homepage/homepage-api.ts and decider.ts).
const MAX_PRICE_RUPEES = 10_000_000;
const IMAGE_REF = /^(https?:\/\/|\/uploads\/[\w./-]+$)/;

/** What the server would refuse in one slide, worded as it words it: name and price required, price 0 to 1 crore with up to 2 decimals. */
export function slideMessages(slide: SlideFormValues): SlideMessages {
  const messages: SlideMessages = {};
  if (!slide.name.trim()) messages.name = 'Name is required';
  const price = slide.price.trim();
  if (price === '') messages.price = 'Price is required';
  else if (!/^\d+(\.\d+)?$/.test(price)) messages.price = 'Price must be a number of at least 0';
  else if (!/^\d+(\.\d{1,2})?$/.test(price)) messages.price = 'Price can have at most 2 decimals';
  else if (Number(price) > MAX_PRICE_RUPEES) messages.price = `Price must be at most ${MAX_PRICE_RUPEES}`;
  const image = slide.image.trim();
  if (image && !IMAGE_REF.test(image))
    messages.image = 'Image must be an http(s) URL or an uploaded image path';
  return messages;
}

/** The messages of every slide that has any, by slide key; empty when the carousel may be sent. */
export function carouselMessages(slides: SlideFormValues[]): Record<string, SlideMessages> {
  const found: Record<string, SlideMessages> = {};
  for (const slide of slides) {
    const messages = slideMessages(slide);
    if (Object.keys(messages).length) found[slide.key] = messages;
  }
  return found;
}
