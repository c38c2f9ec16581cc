import { describe, expect, it } from 'vitest';
import {
  parseCarousel,
  parseCollections,
  parseHomeSections,
  parseSectionContent,
  parseTestimonials,
} from './home-data';
import { starsFor, testimonialPayload, testimonialProblem } from './testimonial-rules';

describe('testimonial rules', () => {
  it('asks a logged-out visitor to log in, then refuses blank text', () => {
    expect(testimonialProblem({ rating: 5, text: 'Lovely' }, false)).toBe('Please login to submit a review');
    expect(testimonialProblem({ rating: 5, text: '   ' }, true)).toBe('Please enter your review text');
    expect(testimonialProblem({ rating: 4, text: 'Lovely' }, true)).toBeNull();
  });

  it('trims the text and keeps the rating a whole number from 1 to 5', () => {
    expect(testimonialPayload({ rating: 4, text: '  Great fit  ' })).toEqual({ rating: 4, text: 'Great fit' });
    expect(testimonialPayload({ rating: 9, text: 'x' }).rating).toBe(5);
    expect(testimonialPayload({ rating: 0, text: 'x' }).rating).toBe(1);
    expect(testimonialPayload({ rating: Number.NaN, text: 'x' }).rating).toBe(5);
    expect(starsFor(3)).toEqual([true, true, true, false, false]);
  });
});

describe('homepage answers', () => {
  it('reads carousel slides with their price in rupees and drops empty ones', () => {
    expect(
      parseCarousel({
        carousel: [
          {
            name: 'Festive Kurta',
            price: '1499.5',
            image: '/uploads/k.png',
            lining: 'Cotton',
            size: 'M',
            height: '5\'8"',
          },
          { image: '' },
        ],
      }),
    ).toEqual([
      { name: 'Festive Kurta', price: 1499.5, image: '/uploads/k.png', lining: 'Cotton', size: 'M', height: '5\'8"' },
    ]);
    expect(parseCarousel({ carousel: [] })).toEqual([]);
    expect(parseCarousel(null)).toEqual([]);
  });

  it('reads collections and approved testimonials with the author name', () => {
    expect(
      parseCollections([{ id: 3, name: 'Summer', description: null, image: null, Products: [] }, { id: 4 }]),
    ).toEqual([{ id: 3, name: 'Summer', description: '', image: null }]);
    expect(
      parseTestimonials([
        { id: 1, rating: 4, text: ' Good ', User: { name: 'Asha' } },
        { id: 2, text: '' },
      ]),
    ).toEqual([{ id: 1, rating: 4, text: 'Good', authorName: 'Asha' }]);
  });

  it('orders sections by display order and reads their content by type', () => {
    const sections = parseHomeSections([
      { id: 2, name: 'Later', contentType: 'collections', contentIds: [1], displayOrder: 3 },
      { id: 1, name: 'First', contentIds: ['5'], displayOrder: 0, textStyle: 'bold', textSize: 'big' },
    ]);
    expect(sections.map((section) => [section.name, section.contentType, section.textStyle])).toEqual([
      ['First', 'products', 'bold'],
      ['Later', 'collections', 'default'],
    ]);
    expect(parseSectionContent({ content: [{ id: 5, name: 'Tee', price: 10 }] }, 'products')).toMatchObject({
      contentType: 'products',
      products: [{ id: 5, name: 'Tee' }],
    });
    expect(parseSectionContent({ content: [{ id: 1, name: 'Summer' }] }, 'collections')).toMatchObject({
      contentType: 'collections',
      collections: [{ id: 1, name: 'Summer' }],
    });
  });
});
