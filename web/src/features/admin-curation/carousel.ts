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
