// A card number dictated group by group and typed as heard: the separators are not always the same all along (a comma
// forgotten, a space where a comma was said). Two phone numbers in a list stay allowed (card-spellings' look-alikes).
import { describe, expect, it } from 'vitest';
import { findCardData } from '../../../shared/text';

const SPELLINGS = ['4242, 4242, 4242 4242', '4242 4242, 4242 4242', '4242, 4242 4242, 4242', '5555/5555/5555 4444'];

describe('a card dictated with separators that change along it', () => {
  it.each(SPELLINGS)('%s', (text) => {
    expect(findCardData(text).map((match) => match.kind)).toEqual(['card_number']);
  });
});
