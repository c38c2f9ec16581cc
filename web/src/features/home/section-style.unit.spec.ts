import { describe, expect, it } from 'vitest';
import { TEXT_STYLES } from '@shop/catalog/home-section-choices';
import { FONT_FAMILIES, hexColorOr, sectionContainerStyle, sectionTitleStyle, textSizeOf } from './section-style';

describe('sectionContainerStyle', () => {
  it("uses the section's colours, #FFFFFF background and #000000 text by default", () => {
    expect(sectionContainerStyle({ textColor: '#1A2b3c', backgroundColor: '#fef' })).toEqual({
      backgroundColor: '#fef',
      color: '#1A2b3c',
    });
    expect(sectionContainerStyle({})).toEqual({ backgroundColor: '#FFFFFF', color: '#000000' });
    expect(sectionContainerStyle({ textColor: 'red', backgroundColor: '#12345' })).toEqual({
      backgroundColor: '#FFFFFF',
      color: '#000000',
    });
  });
});

describe('sectionTitleStyle', () => {
  it('maps small, normal and big to title sizes; default and unknown sizes read as normal', () => {
    expect(sectionTitleStyle({ textSize: 'small' }).fontSize).toBe('1.25rem');
    expect(sectionTitleStyle({ textSize: 'normal' }).fontSize).toBe('1.75rem');
    expect(sectionTitleStyle({ textSize: 'big' }).fontSize).toBe('2.5rem');
    expect(textSizeOf('default')).toBe('normal');
    expect(textSizeOf(undefined)).toBe('normal');
  });

  it('maps bold, italic, uppercase and lowercase to the matching CSS', () => {
    expect(sectionTitleStyle({ textStyle: 'bold' })).toMatchObject({ fontWeight: 700 });
    expect(sectionTitleStyle({ textStyle: 'italic' })).toMatchObject({ fontStyle: 'italic' });
    expect(sectionTitleStyle({ textStyle: 'uppercase' })).toMatchObject({ textTransform: 'uppercase' });
    expect(sectionTitleStyle({ textStyle: 'lowercase' })).toMatchObject({ textTransform: 'lowercase' });
  });

  it('draws outline and thin-outline as a stroke in the text colour over a see-through fill', () => {
    expect(sectionTitleStyle({ textStyle: 'outline', textColor: '#AA0000' })).toMatchObject({
      color: 'transparent',
      WebkitTextStroke: '2px #AA0000',
    });
    expect(sectionTitleStyle({ textStyle: 'thin-outline' })).toMatchObject({
      color: 'transparent',
      WebkitTextStroke: '1px #000000',
    });
  });

  it('puts each named font first in its font stack', () => {
    const fonts = TEXT_STYLES.filter((style) => /^[A-Z]/.test(style));
    expect(fonts).toHaveLength(11);
    for (const font of fonts) {
      const { fontFamily } = sectionTitleStyle({ textStyle: font });
      expect(fontFamily).toBe(FONT_FAMILIES[font]);
      const first = String(fontFamily)
        .split(',')[0]!
        .trim()
        .replace(/^['"]|['"]$/g, '')
        .toLowerCase();
      expect(first.startsWith(font.toLowerCase())).toBe(true);
    }
  });

  it('leaves the default style (and an unknown one) to the page font', () => {
    expect(sectionTitleStyle({ textStyle: 'default', textColor: '#333333' })).toEqual({
      color: '#333333',
      fontSize: '1.75rem',
    });
    expect(sectionTitleStyle({ textStyle: 'Wingdings' })).toEqual({ color: '#000000', fontSize: '1.75rem' });
  });

  it('accepts #rgb and #rrggbb colours only', () => {
    expect(hexColorOr('#abc', 'x')).toBe('#abc');
    expect(hexColorOr(' #A1B2C3 ', 'x')).toBe('#A1B2C3');
    expect(hexColorOr('#abcd', 'x')).toBe('x');
    expect(hexColorOr(null, 'x')).toBe('x');
  });
});
