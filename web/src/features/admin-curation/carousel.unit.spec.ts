import { describe, expect, it } from 'vitest';
import { carouselMessages, emptySlide, homepageFormData, slideMessages, slideToForm } from './carousel';

describe('homepageFormData', () => {
  it('sends the carousel as JSON with numeric prices and a file per slide index', () => {
    const first = {
      ...slideToForm({
        name: 'Kurta',
        price: 1299.5,
        image: '/uploads/a.png',
        lining: 'Cotton',
        size: 'M',
        height: '5\'8"',
      }),
    };
    const file = new File(['x'], 'b.png', { type: 'image/png' });
    const second = { ...emptySlide(), name: ' Saree ', price: '2499', file };
    const form = homepageFormData([first, second], [{ kept: true }]);
    expect(JSON.parse(String(form.get('carousel')))).toEqual([
      { name: 'Kurta', price: 1299.5, lining: 'Cotton', size: 'M', height: '5\'8"', image: '/uploads/a.png' },
      { name: 'Saree', price: 2499, lining: '', size: '', height: '', image: '' },
    ]);
    expect(JSON.parse(String(form.get('sections')))).toEqual([{ kept: true }]);
    expect(form.get('image0')).toBeNull();
    expect((form.get('image1') as File).name).toBe('b.png');
  });

  it('leaves sections out when the saved config had none', () => {
    expect(homepageFormData([]).has('sections')).toBe(false);
    expect(String(homepageFormData([]).get('carousel'))).toBe('[]');
  });
});

describe('slideMessages', () => {
  const typed = (patch: Partial<ReturnType<typeof emptySlide>>) => ({ ...emptySlide(), name: 'Kurta', price: '1299', ...patch });

  it('finds what the server refuses before the form is sent, in its words', () => {
    expect(slideMessages(typed({}))).toEqual({});
    expect(slideMessages(typed({ name: '  ', price: '' }))).toEqual({
      name: 'Name is required',
      price: 'Price is required',
    });
    expect(slideMessages(typed({ price: '-5' })).price).toBe('Price must be a number of at least 0');
    expect(slideMessages(typed({ price: 'abc' })).price).toBe('Price must be a number of at least 0');
    expect(slideMessages(typed({ price: '10.555' })).price).toBe('Price can have at most 2 decimals');
    expect(slideMessages(typed({ price: '10000000.01' })).price).toBe('Price must be at most 10000000');
    expect(slideMessages(typed({ image: 'javascript:alert(1)' })).image).toBe(
      'Image must be an http(s) URL or an uploaded image path',
    );
    expect(slideMessages(typed({ image: 'https://cdn.example/a.png' }))).toEqual({});
    expect(slideMessages(typed({ image: '/uploads/a.png' }))).toEqual({});
  });

  it('names only the slides that have something to fix', () => {
    const good = typed({});
    const bad = typed({ price: '' });
    expect(carouselMessages([good, bad])).toEqual({ [bad.key]: { price: 'Price is required' } });
    expect(carouselMessages([good])).toEqual({});
  });
});
