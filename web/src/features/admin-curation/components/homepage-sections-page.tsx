import { useState, type FormEvent } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { FormFailure, saveFailure, type SaveFailure } from '@/components/form/form-failure';
import { CheckboxField, SelectField, TextField } from '@/components/form/text-field';
import { PageHeader } from '@/components/layout/page-header';
import { notificationShown } from '@/components/notifications/notifications-slice';
import { useConfirmation } from '@/components/ui/confirm-dialog';
import { StatusPill } from '@/components/ui/status-pill';
import {
  contentTypes,
  textSizes,
  useCreateHomeSectionMutation,
  useDeleteHomeSectionMutation,
  useGetAdminCollectionsQuery,
  useGetAdminHomeSectionsQuery,
  useGetCurationProductsQuery,
  useUpdateHomeSectionMutation,
  type ContentType,
  type HomeSection,
  type TextSize,
} from '../api/curation-api';
import {
  contentTypeLabels,
  emptySectionForm,
  sectionFormToInput,
  sectionToForm,
  textSizeLabel,
  textStyleLabel,
  textStyles,
  toggleContentId,
  withContentType,
  type SectionFormValues,
} from '../sections';
import styles from './curation.module.css';

function ColourField({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  const base = label.toLowerCase().replace(/\s+/g, '-');
  const isHex = /^#[0-9a-fA-F]{6}$/.test(value);
  return (
    <div className="field">
      <label className="field-label" htmlFor={`${base}-hex`}>
        {label}
      </label>
      <div className={styles.colorRow}>
        <input
          type="color"
          className="input"
          aria-label={`${label} picker`}
          value={isHex ? value.toLowerCase() : '#000000'}
          onChange={(event) => onChange(event.target.value.toUpperCase())}
        />
        <input
          id={`${base}-hex`}
          className="input"
          type="text"
          value={value}
          maxLength={7}
          aria-invalid={isHex ? undefined : true}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
    </div>
  );
}

type SectionFormProps = {
  editing: HomeSection | null;
  initial: SectionFormValues;
  items: Record<ContentType, { id: string; name: string }[]>;
  onDone: () => void;
};

function SectionForm({ editing, initial, items, onDone }: SectionFormProps) {
  const dispatch = useAppDispatch();
  const [createSection, creating] = useCreateHomeSectionMutation();
  const [updateSection, updating] = useUpdateHomeSectionMutation();
  const [values, setValues] = useState<SectionFormValues>(initial);
  const [formError, setFormError] = useState<string | null>(null);
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const saving = creating.isLoading || updating.isLoading;
  const set = <K extends keyof SectionFormValues>(key: K, value: SectionFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setFormError(null);
  };
  const choices = items[values.contentType];
  const typeLabel = contentTypeLabels[values.contentType].toLowerCase();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    const checked = sectionFormToInput(values);
    if (!checked.ok) {
      setFormError(checked.message);
      dispatch(notificationShown({ type: 'error', message: checked.message }));
      return;
    }
    try {
      if (editing) {
        await updateSection({ id: editing.id, input: checked.input }).unwrap();
        dispatch(notificationShown({ type: 'success', message: 'Section updated' }));
      } else {
        await createSection(checked.input).unwrap();
        dispatch(notificationShown({ type: 'success', message: 'Section created' }));
      }
      onDone();
    } catch (error) {
      // Seed 001: 'Failed to save section', the server's message not used.
      setFailure(saveFailure('Failed to save section', error, { withReason: false }));
      dispatch(notificationShown({ type: 'error', message: 'Failed to save section' }));
    }
  }

  return (
    <form className={styles.card} onSubmit={(event) => void onSubmit(event)} noValidate>
      <h2>{editing ? 'Edit Section' : 'Create Section'}</h2>
      <div className={styles.grid}>
        <TextField label="Section Name" value={values.name} onChange={(event) => set('name', event.target.value)} />
        <SelectField
          label="Content Type"
          value={values.contentType}
          onChange={(event) => {
            setValues((current) => withContentType(current, event.target.value as ContentType));
            setFormError(null);
          }}
        >
          {contentTypes.map((type) => (
            <option key={type} value={type}>
              {contentTypeLabels[type]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Text Style"
          value={values.textStyle}
          onChange={(event) => set('textStyle', event.target.value)}
        >
          {textStyles.map((style) => (
            <option key={style} value={style}>
              {textStyleLabel(style)}
            </option>
          ))}
        </SelectField>
        <ColourField label="Text Colour" value={values.textColor} onChange={(value) => set('textColor', value)} />
        <SelectField
          label="Text Size"
          value={values.textSize}
          onChange={(event) => set('textSize', event.target.value as TextSize)}
        >
          {textSizes.map((size) => (
            <option key={size} value={size}>
              {textSizeLabel(size)}
            </option>
          ))}
        </SelectField>
        <ColourField
          label="Background Colour"
          value={values.backgroundColor}
          onChange={(value) => set('backgroundColor', value)}
        />
        <TextField
          label="Display Order"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          value={values.displayOrder}
          onChange={(event) => set('displayOrder', event.target.value)}
        />
        <CheckboxField label="Active" checked={values.isActive} onChange={(checked) => set('isActive', checked)} />
        <fieldset className={`${styles.wide} field`} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <legend className="field-label">
            Select {contentTypeLabels[values.contentType]} ({values.contentIds.length} selected)
          </legend>
          {choices.length === 0 ? (
            <p className={styles.meta}>No {typeLabel} available</p>
          ) : (
            <ul className={styles.checklist}>
              {choices.map((item) => (
                <li key={item.id}>
                  <label>
                    <input
                      type="checkbox"
                      checked={values.contentIds.includes(item.id)}
                      onChange={() => {
                        setValues((current) => toggleContentId(current, item.id));
                        setFormError(null);
                      }}
                    />
                    {item.name}
                  </label>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
      </div>
      {formError ? (
        <p className={styles.inlineError} role="alert">
          {formError}
        </p>
      ) : null}
      <FormFailure failure={failure} />
      <div className={styles.actions}>
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? 'Saving...' : editing ? 'Update Section' : 'Create Section'}
        </button>
        <button type="button" className="btn btn-outline" onClick={onDone} disabled={saving}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** /admin/homepage-sections: the custom sections by display order, and the create / edit form. */
export function HomepageSectionsPage() {
  const dispatch = useAppDispatch();
  const sections = useGetAdminHomeSectionsQuery();
  const products = useGetCurationProductsQuery();
  const collections = useGetAdminCollectionsQuery();
  const [deleteSection] = useDeleteHomeSectionMutation();
  const [form, setForm] = useState<{ editing: HomeSection | null; initial: SectionFormValues; key: number } | null>(
    null,
  );
  const list = sections.data ?? [];
  const items: Record<ContentType, { id: string; name: string }[]> = {
    products: (products.data ?? []).map((product) => ({ id: String(product.id), name: product.name })),
    collections: (collections.data ?? []).map((collection) => ({ id: collection.id, name: collection.name })),
  };
  const loadFailed = sections.isError || products.isError || collections.isError;

  const deletion = useConfirmation(
    async (section: HomeSection) => {
      try {
        await deleteSection(section.id).unwrap();
        dispatch(notificationShown({ type: 'success', message: 'Section deleted' }));
        if (form?.editing?.id === section.id) setForm(null);
      } catch {
        dispatch(notificationShown({ type: 'error', message: 'Failed to delete section' }));
      }
    },
    () => ({ message: 'Delete this section?' }),
  );

  return (
    <section className="container page">
      <PageHeader
        title="Homepage Sections"
        actions={
          form ? null : (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => setForm({ editing: null, initial: emptySectionForm(list.length), key: Date.now() })}
            >
              + Create Section
            </button>
          )
        }
      />
      {loadFailed ? (
        <p className={styles.inlineError} role="alert">
          Failed to load data
        </p>
      ) : null}
      {form ? (
        <SectionForm
          key={form.key}
          editing={form.editing}
          initial={form.initial}
          items={items}
          onDone={() => setForm(null)}
        />
      ) : null}
      {sections.isLoading ? (
        <p className="empty-state">Loading...</p>
      ) : list.length === 0 ? (
        sections.isError ? null : (
          <p className="empty-state">No sections created yet</p>
        )
      ) : (
        <ul className={styles.list} aria-label="Sections">
          {list.map((section) => (
            <li
              key={section.id}
              className={styles.card}
              style={{ borderLeft: `0.5rem solid ${section.backgroundColor}` }}
              aria-label={section.name}
            >
              <div className={`${styles.row} ${styles.between}`}>
                <h3>
                  {section.name} {section.isActive ? null : <StatusPill tone="muted">Inactive</StatusPill>}
                </h3>
                <div className={styles.actions}>
                  <button
                    type="button"
                    className="btn btn-outline btn-sm"
                    onClick={() => setForm({ editing: section, initial: sectionToForm(section), key: Date.now() })}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className={`btn btn-outline btn-sm ${styles.danger}`}
                    onClick={() => deletion.ask(section)}
                  >
                    Delete
                  </button>
                </div>
              </div>
              <p className={styles.meta}>
                {contentTypeLabels[section.contentType]} · {section.contentIds.length}{' '}
                {section.contentIds.length === 1 ? 'item' : 'items'} · Order {section.displayOrder} · Style:{' '}
                {textStyleLabel(section.textStyle)} · Size: {textSizeLabel(section.textSize)}
              </p>
              <p className={`${styles.meta} ${styles.row}`}>
                Text <span className={styles.swatch} style={{ background: section.textColor }} /> {section.textColor}
                {' · '}Background <span className={styles.swatch} style={{ background: section.backgroundColor }} />{' '}
                {section.backgroundColor}
              </p>
            </li>
          ))}
        </ul>
      )}
      {deletion.dialog}
    </section>
  );
}
