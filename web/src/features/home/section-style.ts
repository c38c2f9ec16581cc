import type { CSSProperties } from 'react';
import type { TextSize } from '@shop/catalog/home-section-choices';

// How an admin-defined homepage section looks: its text style, colours and size mapped to CSS. Pure, so
// every style the admin side can pick is unit-tested.

export const DEFAULT_TEXT_COLOR = '#000000';
export const DEFAULT_BACKGROUND_COLOR = '#FFFFFF';

/** The font stack for each font-name style: the named font first, then look-alikes a device is likely to have. */
export const FONT_FAMILIES: Readonly<Record<string, string>> = {
  Avenir: "Avenir, 'Avenir Next', 'Segoe UI', Helvetica, Arial, sans-serif",
  PHOSPHATE: "Phosphate, 'Phosphate Inline', Impact, 'Arial Black', sans-serif",
  Courier: "Courier, 'Courier New', monospace",
  Chalkboard: "Chalkboard, 'Chalkboard SE', 'Comic Sans MS', cursive",
  'Open Sans': "'Open Sans', 'Segoe UI', Arial, sans-serif",
  'Vacations in Paradise': "'Vacations in Paradise', 'Brush Script MT', cursive",
  'Snell Roundhand': "'Snell Roundhand', 'Brush Script MT', cursive",
  "DAN'S DISNEY": "\"DAN'S DISNEY\", Waltograph, 'Comic Sans MS', fantasy",
  Papyrus: 'Papyrus, fantasy',
  'Comic Sans': "'Comic Sans MS', 'Comic Sans', 'Chalkboard SE', cursive",
  Trattatello: 'Trattatello, fantasy',
};

/** Heading sizes for small, normal and big; `default` (an older name) and anything unknown read as normal. */
export const TITLE_SIZES: Readonly<Record<TextSize, string>> = {
  small: '1.25rem',
  normal: '1.75rem',
  big: '2.5rem',
};

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A hex colour as given, or the fallback when it is not one. */
export function hexColorOr(value: string | null | undefined, fallback: string): string {
  const trimmed = value?.trim() ?? '';
  return HEX_COLOR.test(trimmed) ? trimmed : fallback;
}

export function textSizeOf(value: string | null | undefined): TextSize {
  return value === 'small' || value === 'big' ? value : 'normal';
}

export type SectionLook = {
  textStyle?: string | null;
  textColor?: string | null;
  backgroundColor?: string | null;
  textSize?: string | null;
};

/** The section's box: background and text colour (defaults #FFFFFF and #000000). */
export function sectionContainerStyle(section: SectionLook): CSSProperties {
  return {
    backgroundColor: hexColorOr(section.backgroundColor, DEFAULT_BACKGROUND_COLOR),
    color: hexColorOr(section.textColor, DEFAULT_TEXT_COLOR),
  };
}

/** The section's title: its size, and the text style as font weight, slant, case, outline or font family. */
export function sectionTitleStyle(section: SectionLook): CSSProperties {
  const color = hexColorOr(section.textColor, DEFAULT_TEXT_COLOR);
  const style: CSSProperties = { color, fontSize: TITLE_SIZES[textSizeOf(section.textSize)] };
  const textStyle = section.textStyle ?? 'default';
  switch (textStyle) {
    case 'bold':
      return { ...style, fontWeight: 700 };
    case 'italic':
      return { ...style, fontStyle: 'italic' };
    case 'uppercase':
      return { ...style, textTransform: 'uppercase' };
    case 'lowercase':
      return { ...style, textTransform: 'lowercase' };
    // Outlined letters: the fill is see-through and the stroke takes the text colour.
    case 'outline':
      return { ...style, color: 'transparent', WebkitTextStroke: `2px ${color}`, fontWeight: 800 };
    case 'thin-outline':
      return { ...style, color: 'transparent', WebkitTextStroke: `1px ${color}`, fontWeight: 800 };
    default: {
      const fontFamily = FONT_FAMILIES[textStyle];
      return fontFamily ? { ...style, fontFamily } : style;
    }
  }
}
