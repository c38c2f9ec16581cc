import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { env } from '@/config/env';
import { buildProduct } from '@/testing/data';
import { renderWithProviders } from '@/testing/render-with-providers';
import { ProductCard } from './product-card';

const actions = { onAddToCart: vi.fn(), onBuyNow: vi.fn() };
const origin = env.serverOrigin;
const photo = '/uploads/0b6f1c1e-2f4a-4c57-9a43-6f0f5d0f8c11_w320-640-960-1280-1600/1600.jpg';
const folder = `${origin}/uploads/0b6f1c1e-2f4a-4c57-9a43-6f0f5d0f8c11_w320-640-960-1280-1600`;
const srcSet = (ext: string) => [320, 640, 960, 1280, 1600].map((w) => `${folder}/${w}.${ext} ${w}w`).join(', ');

// the card's image sits in a link hidden from assistive technology (the name links the same page)
const renderCard = (image: string | null) =>
  renderWithProviders(<ProductCard product={buildProduct({ name: 'Chikankari Kurta', image })} {...actions} />);

describe('ProductCard image', () => {
  it("offers an uploaded photo's WebP and JPEG renditions by width, sized to the card", () => {
    const { container } = renderCard(photo);
    const img = screen.getByRole('img', { name: 'Chikankari Kurta', hidden: true });
    const source = container.querySelector('picture > source');
    expect(source?.getAttribute('type')).toBe('image/webp');
    expect(source?.getAttribute('srcset')).toBe(srcSet('webp'));
    expect(source?.getAttribute('sizes')).toBe('(max-width: 479px) 50vw, 20rem');
    expect(img.parentElement?.tagName).toBe('PICTURE');
    expect(img.getAttribute('srcset')).toBe(srcSet('jpg'));
    expect(img.getAttribute('sizes')).toBe('(max-width: 479px) 50vw, 20rem');
    expect(img.getAttribute('src')).toBe(`${folder}/1600.jpg`);
    expect(img.getAttribute('loading')).toBe('lazy');
  });

  it('shows an image without renditions (an older upload, a URL) from its one URL, with no srcset', () => {
    const { container } = renderCard('/uploads/3f1c2a9e-older-upload.png');
    const img = screen.getByRole('img', { name: 'Chikankari Kurta', hidden: true });
    expect(img.getAttribute('src')).toBe(`${origin}/uploads/3f1c2a9e-older-upload.png`);
    expect(img.hasAttribute('srcset')).toBe(false);
    expect(img.hasAttribute('sizes')).toBe(false);
    expect(container.querySelector('picture')).toBeNull();
  });
});
