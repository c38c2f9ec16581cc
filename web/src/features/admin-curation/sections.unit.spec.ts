import { describe, expect, it } from 'vitest';
import {
  emptySectionForm,
  FILL_SECTION_MESSAGE,
  sectionFormToInput,
  textStyleLabel,
  toggleContentId,
  withContentType,
} from './sections';

describe('section form', () => {
  it("starts with the seed's defaults and the next display order", () => {
    expect(emptySectionForm(3)).toMatchObject({
      contentType: 'products',
      textStyle: 'default',
      textColor: '#000000',
      backgroundColor: '#FFFFFF',
      textSize: 'normal',
      displayOrder: '3',
      isActive: true,
    });
  });

  it('clears the chosen items when the content type changes, and only then', () => {
    const chosen = toggleContentId(toggleContentId(emptySectionForm(0), 'p1'), 'p2');
    expect(chosen.contentIds).toEqual(['p1', 'p2']);
    expect(withContentType(chosen, 'products').contentIds).toEqual(['p1', 'p2']);
    expect(withContentType(chosen, 'collections')).toMatchObject({ contentType: 'collections', contentIds: [] });
  });

  it('unticks an item that was ticked', () => {
    const form = toggleContentId(toggleContentId(emptySectionForm(0), 'p1'), 'p1');
    expect(form.contentIds).toEqual([]);
  });

  it('needs a name and at least one item', () => {
    expect(sectionFormToInput({ ...emptySectionForm(0), contentIds: ['p1'] })).toEqual({
      ok: false,
      message: FILL_SECTION_MESSAGE,
    });
    expect(sectionFormToInput({ ...emptySectionForm(0), name: 'Festive' })).toEqual({
      ok: false,
      message: FILL_SECTION_MESSAGE,
    });
  });

  it('refuses a display order below 0 and builds the input otherwise', () => {
    const form = { ...emptySectionForm(2), name: ' Festive ', contentIds: ['p1'] };
    expect(sectionFormToInput({ ...form, displayOrder: '-1' })).toMatchObject({ ok: false });
    expect(sectionFormToInput({ ...form, textColor: '#ff0000' })).toEqual({
      ok: true,
      input: {
        name: 'Festive',
        contentType: 'products',
        contentIds: ['p1'],
        textStyle: 'default',
        textColor: '#FF0000',
        backgroundColor: '#FFFFFF',
        textSize: 'normal',
        displayOrder: 2,
        isActive: true,
      },
    });
  });

  it('names plain styles and keeps font names', () => {
    expect(textStyleLabel('thin-outline')).toBe('Thin Outline');
    expect(textStyleLabel('Snell Roundhand')).toBe('Snell Roundhand');
  });
});
