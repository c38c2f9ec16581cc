import { useState, type FormEvent } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { TextField } from '@/components/form/text-field';
import { HeaderRow, PageHeader } from '@/components/layout/page-header';
import { FormFailure, saveFailure, type SaveFailure } from '@/components/form/form-failure';
import { notificationShown } from '@/components/notifications/notifications-slice';
import { ProductImage } from '@/components/ui/product-image';
import { THUMBNAIL_SIZES } from '@/lib/image-url';
import { Spinner } from '@/components/ui/spinner';
import { useGetAdminHomepageQuery, useSaveHomepageMutation, type HomepageConfig } from '../api/curation-api';
import {
  carouselMessages,
  emptySlide,
  homepageFormData,
  slideToForm,
  type SlideFormValues,
  type SlideMessages,
} from '../carousel';
import styles from './curation.module.css';

function SlideFields({
  slide,
  index,
  messages,
  onChange,
  onRemove,
}: {
  slide: SlideFormValues;
  index: number;
  messages: SlideMessages | undefined;
  onChange: (patch: Partial<SlideFormValues>) => void;
  onRemove: () => void;
}) {
  const [fileError, setFileError] = useState<string | null>(null);
  const fileId = `${slide.key}-file`;
  return (
    <fieldset className={styles.card}>
      <legend>Slide {index + 1}</legend>
      <div className={styles.grid}>
        <TextField
          label="Name"
          required
          value={slide.name}
          error={messages?.name}
          onChange={(event) => onChange({ name: event.target.value })}
        />
        <TextField
          label="Price (₹)"
          type="number"
          inputMode="decimal"
          min={0}
          max={10_000_000}
          step="0.01"
          required
          value={slide.price}
          error={messages?.price}
          onChange={(event) => onChange({ price: event.target.value })}
        />
        <TextField label="Lining" value={slide.lining} onChange={(event) => onChange({ lining: event.target.value })} />
        <TextField label="Size" value={slide.size} onChange={(event) => onChange({ size: event.target.value })} />
        <TextField label="Height" value={slide.height} onChange={(event) => onChange({ height: event.target.value })} />
        <TextField
          label="Image URL"
          type="text"
          placeholder="Optional"
          value={slide.image}
          error={messages?.image}
          onChange={(event) => onChange({ image: event.target.value })}
        />
        <div className="field">
          <label className="field-label" htmlFor={fileId}>
            Image file
          </label>
          <input
            id={fileId}
            className="input"
            type="file"
            accept="image/*"
            onChange={(event) => {
              const file = event.target.files?.[0] ?? null;
              if (file && !file.type.startsWith('image/')) {
                setFileError('Only image files are allowed');
                event.target.value = '';
                onChange({ file: null });
                return;
              }
              setFileError(null);
              onChange({ file });
            }}
          />
          {fileError ? <p className="field-error">{fileError}</p> : null}
        </div>
        {slide.image && !slide.file ? (
          <ProductImage
            image={slide.image}
            alt={`Slide ${index + 1} image`}
            className={styles.slidePreview}
            sizes={THUMBNAIL_SIZES}
          />
        ) : null}
      </div>
      <div className={styles.actions}>
        <button type="button" className={`btn btn-outline btn-sm ${styles.danger}`} onClick={onRemove}>
          Remove
        </button>
      </div>
    </fieldset>
  );
}

function CarouselForm({ config }: { config: HomepageConfig }) {
  const dispatch = useAppDispatch();
  const [saveHomepage, { isLoading: saving }] = useSaveHomepageMutation();
  const [slides, setSlides] = useState<SlideFormValues[]>(() => config.carousel.map(slideToForm));
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  // What the browser found at the last Save, by slide key: shown beside each field, nothing is sent.
  const [messages, setMessages] = useState<Record<string, SlideMessages>>({});

  const update = (key: string, patch: Partial<SlideFormValues>) =>
    setSlides((current) => current.map((slide) => (slide.key === key ? { ...slide, ...patch } : slide)));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    const found = carouselMessages(slides);
    setMessages(found);
    if (Object.keys(found).length) return;
    try {
      await saveHomepage(homepageFormData(slides, config.sections)).unwrap();
      dispatch(
        notificationShown({
          type: 'success',
          title: 'Homepage updated',
          message: 'Homepage configuration has been saved successfully',
        }),
      );
    } catch (error) {
      // The slides stay as typed (a refused save refetches nothing), with the reason beside them.
      const refused = saveFailure('Failed to save', error);
      setFailure(refused);
      dispatch(notificationShown({ type: 'error', title: refused.title, message: refused.reason }));
    }
  }

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Carousel slides">
      <HeaderRow>
        <h2>Carousel Slides</h2>
        <button type="button" className="btn btn-outline" onClick={() => setSlides((s) => [...s, emptySlide()])}>
          Add Slide
        </button>
      </HeaderRow>
      {slides.length === 0 ? <p className="empty-state">No slides yet</p> : null}
      {slides.map((slide, index) => (
        <SlideFields
          key={slide.key}
          slide={slide}
          index={index}
          messages={messages[slide.key]}
          onChange={(patch) => update(slide.key, patch)}
          onRemove={() => setSlides((current) => current.filter((s) => s.key !== slide.key))}
        />
      ))}
      <FormFailure failure={failure} />
      <div className={styles.actions}>
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? 'Saving...' : 'Save Changes'}
        </button>
      </div>
    </form>
  );
}

/** /admin/home: the homepage carousel's slides. */
export function HomepageSettingsPage() {
  const homepage = useGetAdminHomepageQuery();
  return (
    <section className="container page">
      <PageHeader title="Homepage Settings" />
      {homepage.isLoading ? (
        <Spinner />
      ) : (
        // A load failure gives an empty slide list (seed 001, section 8). Keyed by the saved config so a
        // save, which refetches it, restarts the form from what the server stored (uploaded image paths).
        <CarouselForm key={homepage.fulfilledTimeStamp ?? 'empty'} config={homepage.data ?? { carousel: [] }} />
      )}
    </section>
  );
}
