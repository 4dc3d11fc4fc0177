/** One entry of the embedded gazetteer. Addresses are in one language: street and number, postcode and municipality. */
export interface GazetteerEntry {
  /** Display form, e.g. `Rue du Marché aux Herbes 10, 1000 Bruxelles`. */
  readonly address: string;
  readonly lat: number;
  readonly lon: number;
  /** `address` (street and number), `municipality` (centre of a Belgian municipality) or `place` (abroad). */
  readonly kind: 'address' | 'municipality' | 'place';
}
