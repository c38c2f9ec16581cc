import type { ContentType, HomeSection, HomeSectionInput, TextSize } from './api/curation-api';
import { TEXT_STYLES } from '@shop/catalog/home-section-choices';

export const textStyles = TEXT_STYLES;

const plainStyleLabels: Record<string, string> = {
  default: 'Default',
  outline: 'Outline',
  bold: 'Bold',
  italic: 'Italic',
  uppercase: 'Uppercase',
  lowercase: 'Lowercase',
  'thin-outline': 'Thin Outline',
};

/** How a text style is named on screen: the plain looks capitalised, font names as they are. */
export function textStyleLabel(style: string): string {
  return plainStyleLabels[style] ?? style;
}

const sizeLabels: Record<TextSize, string> = { small: 'Small', normal: 'Normal', big: 'Big' };

export function textSizeLabel(size: TextSize): string {
  return sizeLabels[size];
}

export const contentTypeLabels: Record<ContentType, string> = { products: 'Products', collections: 'Collections' };

/** The section form as typed. */
export type SectionFormValues = {
  name: string;
  contentType: ContentType;
  contentIds: string[];
  textStyle: string;
  textColor: string;
  backgroundColor: string;
  textSize: TextSize;
  displayOrder: string;
  isActive: boolean;
};

/** A fresh form; its display order defaults to the number of sections already there. */
export function emptySectionForm(sectionCount: number): SectionFormValues {
  return {
    name: '',
    contentType: 'products',
    contentIds: [],
    textStyle: 'default',
    textColor: '#000000',
    backgroundColor: '#FFFFFF',
    textSize: 'normal',
    displayOrder: String(sectionCount),
    isActive: true,
  };
}

export function sectionToForm(section: HomeSection): SectionFormValues {
  return {
    name: section.name,
    contentType: section.contentType,
    contentIds: [...section.contentIds],
    textStyle: section.textStyle,
    textColor: section.textColor,
    backgroundColor: section.backgroundColor,
    textSize: section.textSize,
    displayOrder: String(section.displayOrder),
    isActive: section.isActive,
  };
}

/** Changing the content type clears the chosen items (they are ids of the other kind). */
export function withContentType(values: SectionFormValues, contentType: ContentType): SectionFormValues {
  if (values.contentType === contentType) return values;
  return { ...values, contentType, contentIds: [] };
}

/** Ticks or unticks one item, keeping the order in which items were ticked. */
export function toggleContentId(values: SectionFormValues, itemId: string): SectionFormValues {
  const contentIds = values.contentIds.includes(itemId)
    ? values.contentIds.filter((existing) => existing !== itemId)
    : [...values.contentIds, itemId];
  return { ...values, contentIds };
}

export const FILL_SECTION_MESSAGE = 'Please fill name and select at least one item';

const HEX = /^#[0-9a-fA-F]{6}$/;

/** The seed's rule (name and at least one item), a display order of 0 or more, and hex colours. */
export function sectionFormToInput(
  values: SectionFormValues,
): { ok: true; input: HomeSectionInput } | { ok: false; message: string } {
  const name = values.name.trim();
  if (!name || values.contentIds.length === 0) return { ok: false, message: FILL_SECTION_MESSAGE };
  const order = values.displayOrder.trim() === '' ? 0 : Number(values.displayOrder);
  if (!Number.isInteger(order) || order < 0)
    return { ok: false, message: 'Display order must be a whole number of 0 or more' };
  if (!HEX.test(values.textColor)) return { ok: false, message: 'Text colour must be a hex colour such as #000000' };
  if (!HEX.test(values.backgroundColor))
    return { ok: false, message: 'Background colour must be a hex colour such as #FFFFFF' };
  return {
    ok: true,
    input: {
      name,
      contentType: values.contentType,
      contentIds: values.contentIds,
      textStyle: values.textStyle,
      textColor: values.textColor.toUpperCase(),
      backgroundColor: values.backgroundColor.toUpperCase(),
      textSize: values.textSize,
      displayOrder: order,
      isActive: values.isActive,
    },
  };
}
