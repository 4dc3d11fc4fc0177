/**
 * Other-language names, so a Dutch query finds a French entry and the other way round. Belgian municipalities with
 * official names in more than one language (French, Dutch, German, plus the English exonyms users type), and the
 * most-searched central Brussels streets, whose names are bilingual by law (Brussels-Capital Region street register,
 * UrbIS). The gazetteer stores each address in one language; these aliases only widen what matches it.
 */
import { tokenize } from './normalize.js';

/** Names that denote the same place; `postcodes` limits a street alias to entries carrying one of those postcodes. */
export interface AliasGroup {
  readonly names: readonly string[];
  readonly postcodes?: readonly string[];
}

/** The alias table (names are folded at load, so accents and hyphens here are for the reader). */
export const ALIAS_GROUPS: readonly AliasGroup[] = [
  // Brussels-Capital Region municipalities (French / Dutch / English).
  { names: ['Bruxelles', 'Brussel', 'Brussels'] },
  { names: ['Auderghem', 'Oudergem'] },
  { names: ['Berchem-Sainte-Agathe', 'Sint-Agatha-Berchem'] },
  { names: ['Forest', 'Vorst'] },
  { names: ['Ixelles', 'Elsene'] },
  { names: ['Molenbeek-Saint-Jean', 'Sint-Jans-Molenbeek'] },
  { names: ['Saint-Gilles', 'Sint-Gillis'] },
  { names: ['Saint-Josse-ten-Noode', 'Sint-Joost-ten-Node'] },
  { names: ['Schaerbeek', 'Schaarbeek'] },
  { names: ['Uccle', 'Ukkel'] },
  { names: ['Watermael-Boitsfort', 'Watermaal-Bosvoorde'] },
  { names: ['Woluwe-Saint-Lambert', 'Sint-Lambrechts-Woluwe'] },
  { names: ['Woluwe-Saint-Pierre', 'Sint-Pieters-Woluwe'] },
  // Other cities with established names in several languages.
  { names: ['Antwerpen', 'Anvers', 'Antwerp'] },
  { names: ['Gent', 'Gand', 'Ghent'] },
  { names: ['Brugge', 'Bruges'] },
  { names: ['Leuven', 'Louvain'] },
  { names: ['Mechelen', 'Malines'] },
  { names: ['Liège', 'Luik', 'Lüttich'] },
  { names: ['Namur', 'Namen'] },
  { names: ['Mons', 'Bergen'] },
  { names: ['Kortrijk', 'Courtrai'] },
  { names: ['Tournai', 'Doornik'] },
  { names: ['Oostende', 'Ostende', 'Ostend'] },
  { names: ['Ieper', 'Ypres'] },
  { names: ['Aalst', 'Alost'] },
  { names: ['Tongeren', 'Tongres'] },
  { names: ['Nivelles', 'Nijvel'] },
  { names: ['Wavre', 'Waver'] },
  { names: ['Arlon', 'Aarlen'] },
  { names: ['Halle', 'Hal'] },
  { names: ['Vilvoorde', 'Vilvorde'] },
  { names: ['Huy', 'Hoei'] },
  { names: ['Waremme', 'Borgworm'] },
  { names: ['Soignies', 'Zinnik'] },
  { names: ['Sint-Truiden', 'Saint-Trond'] },
  { names: ['Tienen', 'Tirlemont'] },
  { names: ['Ronse', 'Renaix'] },
  { names: ['Oudenaarde', 'Audenarde'] },
  { names: ['Dendermonde', 'Termonde'] },
  { names: ['Veurne', 'Furnes'] },
  { names: ['Diksmuide', 'Dixmude'] },
  { names: ['Nieuwpoort', 'Nieuport'] },
  { names: ['Roeselare', 'Roulers'] },
  { names: ['Mouscron', 'Moeskroen'] },
  { names: ['Lier', 'Lierre'] },
  { names: ['Ath', 'Aat'] },
  { names: ["Braine-l'Alleud", 'Eigenbrakel'] },
  { names: ['Bastogne', 'Bastenaken'] },
  { names: ['Sankt Vith', 'Saint-Vith', 'St. Vith'] },
  // Short forms in everyday use.
  { names: ['Ottignies-Louvain-la-Neuve', 'Louvain-la-Neuve'] },
  // Central Brussels streets (1000 Bruxelles / Brussel).
  { names: ['Grand-Place', 'Grote Markt'], postcodes: ['1000'] },
  { names: ['Rue du Marché aux Herbes', 'Grasmarkt'], postcodes: ['1000'] },
  { names: ['Rue Neuve', 'Nieuwstraat'], postcodes: ['1000'] },
  { names: ['Place de la Monnaie', 'Muntplein'], postcodes: ['1000'] },
  { names: ['Boulevard Anspach', 'Anspachlaan'], postcodes: ['1000'] },
  { names: ['Place Royale', 'Koningsplein'], postcodes: ['1000'] },
  { names: ['Mont des Arts', 'Kunstberg'], postcodes: ['1000'] },
  { names: ['Rue Haute', 'Hoogstraat'], postcodes: ['1000'] },
  { names: ['Place Sainte-Catherine', 'Sint-Katelijneplein'], postcodes: ['1000'] },
  { names: ['Rue de la Loi', 'Wetstraat'], postcodes: ['1000', '1040'] },
];

/** Upper bound on variants per entry, so an entry matching many groups cannot blow up the index. */
export const MAX_VARIANTS = 16;

interface FoldedGroup {
  readonly names: readonly (readonly string[])[];
  readonly postcodes?: ReadonlySet<string>;
}

const FOLDED: readonly FoldedGroup[] = ALIAS_GROUPS.map((g) => ({
  names: g.names.map(tokenize),
  ...(g.postcodes === undefined ? {} : { postcodes: new Set(g.postcodes) }),
}));

function indexOfRun(tokens: readonly string[], run: readonly string[]): number {
  outer: for (let i = 0; i + run.length <= tokens.length; i++) {
    for (let k = 0; k < run.length; k++) if (tokens[i + k] !== run[k]) continue outer;
    return i;
  }
  return -1;
}

/**
 * The entry's token list followed by its other-language variants: for every alias group whose name appears as a run
 * of tokens (and whose postcode condition holds), each other name replaces it. Groups combine, so "Grand-Place 1,
 * 1000 Bruxelles" also yields `grote markt 1 1000 brussel`. The original always comes first. The postcode condition
 * is checked against `context` (by default the tokens themselves), so a street name alone can be varied with the
 * postcode of its address.
 */
export function aliasVariants(tokens: readonly string[], context: readonly string[] = tokens): string[][] {
  const variants: string[][] = [[...tokens]];
  const seen = new Set([tokens.join(' ')]);
  for (const group of FOLDED) {
    if (group.postcodes !== undefined && !context.some((t) => group.postcodes!.has(t))) continue;
    for (const variant of [...variants]) {
      for (const name of group.names) {
        const at = indexOfRun(variant, name);
        if (at === -1) continue;
        for (const other of group.names) {
          if (other === name || variants.length >= MAX_VARIANTS) continue;
          const next = [...variant.slice(0, at), ...other, ...variant.slice(at + name.length)];
          const key = next.join(' ');
          if (!seen.has(key)) {
            seen.add(key);
            variants.push(next);
          }
        }
        break;
      }
    }
  }
  return variants;
}

/**
 * The other names of a whole name: for the alias group one of whose names is exactly `tokens` (and whose postcode
 * condition `context` meets), its other names, folded. A name inside a longer one is not replaced, so
 * "Ottignies-Louvain-la-Neuve" has no Dutch form borrowed from "Louvain" (Leuven).
 */
export function wholeNameAliases(tokens: readonly string[], context: readonly string[]): string[][] {
  const key = tokens.join(' ');
  const out: string[][] = [];
  for (const group of GROUPS_BY_NAME.get(key) ?? []) {
    if (group.postcodes !== undefined && !context.some((t) => group.postcodes!.has(t))) continue;
    for (const n of group.names) if (n.join(' ') !== key) out.push([...n]);
  }
  return out;
}

/** The groups holding each whole name (folded, words joined by spaces), in table order: a name is looked up once. */
const GROUPS_BY_NAME: ReadonlyMap<string, readonly FoldedGroup[]> = (() => {
  const index = new Map<string, FoldedGroup[]>();
  for (const group of FOLDED) {
    for (const key of new Set(group.names.map((n) => n.join(' ')))) {
      const list = index.get(key);
      if (list === undefined) index.set(key, [group]);
      else list.push(group);
    }
  }
  return index;
})();
