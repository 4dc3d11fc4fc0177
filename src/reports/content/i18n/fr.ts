/**
 * French texts of a report (Belgian usage). BelAQI labels are IRCEL-CELINE's French labels. French typography: a
 * no-break space before a colon and %, a narrow one before a semicolon, so none of them ever starts a line.
 */
import type { Messages } from './en.js';

/** The French texts. */
export const fr: Messages = {
  title: 'Rapport environnemental au niveau de la rue',
  subtitle: 'Qualité de l’air, confort au vent et confort thermique',
  generated: (when) => `Établi le ${when}`,
  page: (n, of) => `Page ${n} sur ${of}`,
  footer: 'svc-api, statistiques environnementales au niveau de la rue',

  metricNames: { air: 'Qualité de l’air', wind: 'Confort au vent', thermal: 'Confort thermique' },
  scoreLabels: {
    Excellent: 'Excellent', 'Very good': 'Très bon', Good: 'Bon', Moderate: 'Moyen', Poor: 'Médiocre', Bad: 'Mauvais',
  },
  belaqiLabels: [
    'Excellent', 'Très bon', 'Bon', 'Assez bon', 'Moyen', 'Médiocre', 'Très médiocre', 'Mauvais', 'Très mauvais', 'Exécrable',
  ],
  windClasses: ['Calme', 'Légèrement venteux', 'Venteux', 'Très venteux', 'Danger'],
  utciClasses: [
    'Froid extrême', 'Très fort stress de froid', 'Fort stress de froid', 'Stress de froid modéré', 'Léger stress de froid',
    'Confortable', 'Stress de chaleur modéré', 'Fort stress de chaleur', 'Très fort stress de chaleur', 'Chaleur extrême',
  ],
  seasons: { winter: 'Hiver', spring: 'Printemps', summer: 'Été', autumn: 'Automne' },

  location: {
    title: 'Lieu',
    address: 'Adresse',
    coordinates: 'Coordonnées',
    coordinatesValue: (lat, lon) => `${lat}\u202F; ${lon} (WGS 84)`,
    area: 'Zone',
    cityArea: (city) => `${city}, modèle au niveau de la rue`,
    cityNationwideArea: (city) => `${city}, modèle national (pas de modèle au niveau de la rue ici)`,
    nationwideArea: 'Belgique, modèle national',
    dataset: 'Jeu de données',
    datasetValue: (id, cell) => `${id}, mailles de ${cell}`,
    sampling: 'Échantillonnage',
    samplingPoint: 'La maille qui contient le lieu.',
    samplingRadius: (n, r) => `Moyenne des ${n} mailles extérieures dont le centre se trouve à moins de ${r} du lieu.`,
    samplingNearest: (n, d) =>
      `Le lieu se trouve dans un bâtiment\u00A0: les ${n} mailles extérieures les plus proches, à ${d}, sont utilisées.`,
    samplingContaining: (cell, r) =>
      `La maille de ${cell} qui contient le lieu. Les données nationales ont une valeur par maille\u00A0: le rayon demandé de ${r} ne s’applique pas.`,
    period: 'Période',
    periodValue: (year, hours) => `Année de référence ${year}, ${hours} valeurs horaires`,
  },

  summary: {
    title: 'Synthèse',
    rating: 'Note',
    outOf: '/ 10',
    scoreLine: (score, label) => `Score ${score} / 10, ${label}`,
    air: (good, limiting) => `Air de bonne qualité (BelAQI 1 à 4) ${good} des heures\u202F; polluant limitant ${limiting}.`,
    wind: (calm, mean) => `Calme ${calm} des heures\u202F; vent moyen à hauteur de piéton ${mean}.`,
    thermal: (comfort, days) =>
      `Confortable ${comfort} des heures de jour en été\u202F; ${days} jours de fort stress de chaleur.`,
    howToRead:
      'Notes et scores vont de 0 à 10\u202F; plus c’est élevé, mieux c’est. Les libellés suivent le score\u00A0: à partir de 9 Excellent, 7,5 Très bon, 6 Bon, 4 Moyen, 2 Médiocre, sous 2 Mauvais.',
    absentNames: { air: 'La qualité de l’air', wind: 'Le confort au vent', thermal: 'Le confort thermique' },
    absent: (metric, why) => `${metric} ne fait pas partie de ce rapport\u00A0: ${why}.`,
    notInScope: 'la clé API utilisée ne le comprend pas',
    notModelled: 'les données de ce lieu ne le modélisent pas',
  },

  air: {
    intro:
      'La qualité de l’air est évaluée heure par heure avec l’indice belge BelAQI (IRCEL-CELINE) sur NO₂, PM₂.₅ et PM₁₀, de 1 (Excellent) à 10 (Exécrable)\u00A0: le polluant le plus défavorable fixe la classe de l’heure. Les heures des classes 1 à 4 comptent comme air de bonne qualité. L’ozone n’est pas modélisé au niveau de la rue.',
    rating: 'Note',
    ratingNote: (good) => `air de bonne qualité pendant ${good} des heures évaluées`,
    score: 'Score',
    scoreNote: 'moyenne annuelle du polluant le plus défavorable sur l’échelle des lignes directrices OMS 2021',
    annualMean: (p) => `Moyenne annuelle ${p}`,
    meanNote: (who, eu, sub) => `ligne directrice OMS ${who}, valeur limite UE ${eu}\u202F; sous-score ${sub}`,
    noData: 'pas de données',
    limiting: 'Polluant limitant',
    dominant: 'Fixe le plus souvent l’indice horaire',
    dominantValue: (p, share) => `${p}, ${share} des heures`,
    dayNight: 'Air de bonne qualité de jour / de nuit',
    dayNightNote: 'jour 08:00–20:00, nuit 20:00–08:00, heure locale',
    bestWorst: 'Meilleur / pire mois',
    graded: 'Heures évaluées',
    benchmark: 'Référence du centre-ville',
    benchmarkValue: (city, diff) => `${city} d’air de bonne qualité\u202F; ce lieu ${diff} points de pourcentage`,
    monthlyTitle: 'Air de bonne qualité par mois',
    monthlyCaption: 'Part des heures évaluées en classes BelAQI 1 à 4, par mois.',
    distributionTitle: 'Heures par classe BelAQI',
    distributionCaption: 'Part des heures évaluées dans chaque classe de l’indice, couleurs officielles BelAQI.',
    explain:
      'La note indique combien de fois l’air est de bonne qualité. Le score compare les moyennes annuelles aux lignes directrices OMS 2021\u00A0: un polluant au niveau de la ligne directrice ou en dessous obtient 10, au premier objectif intermédiaire 2\u202F; le polluant le plus défavorable décide.',
  },

  wind: {
    intro:
      'Le confort au vent des piétons est évalué heure par heure à partir de la vitesse moyenne du vent à hauteur de piéton et des rafales\u00A0: Calme sous 4 m/s, Légèrement venteux de 4 à 6 m/s, Venteux de 6 à 8 m/s, Très venteux au-delà de 8 m/s ou avec des rafales de 10 m/s et plus, Danger au-delà de 15 m/s.',
    rating: 'Note',
    ratingNote: 'la plus basse entre le score et l’échelle de l’heure la plus venteuse',
    score: 'Score',
    scoreNote: 'méthode des dépassements\u00A0: chaque seuil de confort peut être dépassé 5\u00A0% des heures, le danger 0,05\u00A0%',
    calm: 'Heures calmes',
    mean: 'Vitesse moyenne du vent',
    p95: '95e centile',
    maxGust: 'Rafale la plus forte',
    worst: 'Heure la plus venteuse',
    worstValue: (speed, hours) => `${speed} de vitesse effective (${hours} h à moins de 0,5 m/s)`,
    exceedance: 'Heures au-delà de chaque seuil',
    thresholds: {
      above_frequent_sitting: 'Au-delà de 2,5 m/s (position assise prolongée)',
      slightly_windy_or_worse: 'Légèrement venteux ou pire',
      windy_or_worse: 'Venteux ou pire',
      very_windy_or_worse: 'Très venteux ou pire',
      danger: 'Danger',
    },
    allowance: (a) => `tolérance ${a}`,
    distributionTitle: 'Heures par classe de vent',
    distributionCaption: 'Part des heures dans chaque classe de vent pour piétons.',
    monthlyTitle: 'Vitesse moyenne du vent par mois',
    monthlyCaption: 'Vitesse moyenne du vent à hauteur de piéton, m/s.',
    explain:
      'La vitesse effective d’une heure est la plus grande entre la vitesse moyenne et 0,8 fois la rafale. La note est plafonnée par l’heure la plus venteuse\u00A0: sous 10 m/s elle ne limite pas, à partir de 22 m/s elle donne 0.',
  },

  thermal: {
    intro:
      'Le confort thermique utilise l’indice UTCI (Universal Thermal Climate Index), la température ressentie, calculée à partir de la température de l’air, de l’humidité, du vent et de l’ensoleillement. Entre 9 et 26 °C il n’y a pas de stress thermique (confortable)\u202F; de 0 à 32 °C c’est acceptable.',
    rating: 'Note',
    ratingNote: (season) => `part confortable de jour de la saison extérieure la plus faible (${season})`,
    score: 'Score',
    scoreNote: (season) => `parts acceptables de jour selon les ancrages de chaque saison\u202F; la plus faible\u00A0: ${season}`,
    summerDay: 'Heures de jour confortables en été',
    heatDays: 'Jours de fort stress de chaleur',
    heatDaysNote: 'jours dont l’UTCI maximal dépasse 32 °C',
    tropicalNights: 'Nuits tropicales',
    tropicalNightsNote: 'nuits dont l’UTCI minimal reste au-dessus de 20 °C',
    summerNight: 'UTCI moyen des nuits d’été',
    vsCity: (diff) => `${diff} par rapport à l’ensemble de la zone modélisée`,
    comfortAll: 'Heures confortables, toute l’année',
    meanMinMax: 'UTCI moyen / minimal / maximal',
    seasonalTitle: 'Confort par saison (de jour)',
    seasonalCaption: 'Part des heures de jour (08:00–20:00) confortables (9 à 26 °C) et acceptables (0 à 32 °C).',
    comfortable: 'Confortable',
    acceptable: 'Acceptable',
    monthlyTitle: 'UTCI moyen par mois',
    monthlyCaption: 'UTCI moyen mensuel, coloré selon sa catégorie de stress UTCI.',
    explain:
      'L’hiver est présenté mais pas noté\u00A0: le froid y est attendu. La note utilise le printemps, l’été et l’automne\u202F; le score tient aussi compte de la fréquence à laquelle chaque saison reste acceptable.',
  },

  surroundings: {
    title: 'Environs',
    streetIntro: (size, cell) =>
      `Les cartes montrent ${size} × ${size} autour du lieu, tirés du même jeu de données que les statistiques, un carré par ${cell}. Les bâtiments sont en gris foncé\u202F; les mailles utilisées pour les statistiques sont entourées de noir et le lieu est marqué d’une croix.`,
    regionalIntro: (size, cell) =>
      `Les données nationales ont une valeur par maille de ${cell}\u00A0: ces cartes montrent donc la région, ${size} × ${size} autour du lieu. La maille utilisée pour les statistiques est entourée de noir et le lieu est marqué d’une croix\u202F; le trait fin est la frontière nationale.`,
    aggregated: (n) => `Chaque carré fait la moyenne des mailles extérieures de ${n} × ${n} mailles.`,
    no2Title: 'NO₂, moyenne annuelle',
    no2Caption: 'µg/m³, dans les couleurs des classes BelAQI du NO₂.',
    windTitle: 'Classe de confort au vent',
    windCaption: 'Classe la plus élevée atteinte plus de 5\u00A0% des heures. Hachuré\u00A0: Danger, plus de 15 m/s pendant plus de 0,05\u00A0% des heures.',
    utciTitle: 'UTCI de jour en été',
    utciCaption: 'UTCI moyen, de juin à août, 08:00–20:00\u202F; les couleurs couvrent l’étendue de cette carte.',
    building: 'Bâtiment',
    outside: 'Hors de la zone modélisée',
    north: 'N',
  },

  method: {
    title: 'Méthode et sources',
    items: [
      'Les statistiques couvrent toutes les heures de l’année de référence. Mois, saisons, jour et nuit sont en heure locale (Europe/Bruxelles). Les saisons sont météorologiques\u00A0: hiver de décembre à février, printemps de mars à mai, été de juin à août, automne de septembre à novembre.',
      'Air\u00A0: l’indice BelAQI d’une heure est la plus défavorable des classes NO₂, PM₂.₅ et PM₁₀\u202F; quand plusieurs mailles sont moyennées, leurs classes sont moyennées heure par heure et arrondies au demi supérieur. Les moyennes annuelles sont comparées aux lignes directrices OMS 2021 (NO₂ 10, PM₂.₅ 5, PM₁₀ 15 µg/m³).',
      'Vent\u00A0: la classe d’une heure est la plus défavorable entre la classe de confort selon la vitesse moyenne et la classe de rafale (des rafales de 10 m/s rendent l’heure très venteuse, au-delà de 15 m/s dangereuse). Les seuils suivent les critères de confort de Lawson et la limite de sécurité de la NEN 8100.',
      'Confort thermique\u00A0: UTCI selon le polynôme opérationnel de Bröde et al. (2012). Un jour de fort stress de chaleur a un maximum au-delà de 32 °C\u202F; une nuit tropicale reste au-dessus de 20 °C de 20:00 à 08:00.',
      'Les pourcentages et températures sont arrondis à 1 décimale, les vitesses de vent à 2, les notes et scores à 1.',
    ],
    data: (dataset, year, computed) =>
      `Statistiques du jeu de données ${dataset}, année de référence ${year}, calculées le ${computed}.`,
    attribution: 'Attribution',
    disclaimer:
      'Les valeurs modélisées décrivent les conditions typiques de l’année de référence au lieu choisi\u202F; ce ne sont pas des mesures et elles ne remplacent pas une évaluation sur place.',
  },
};
