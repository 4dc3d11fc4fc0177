/**
 * English texts of a report. Its shape is the `Messages` every language implements (fr.ts, nl.ts); parameters that
 * are numbers arrive already formatted for the language (format.ts). BelAQI labels are IRCEL-CELINE's.
 */

/** Pollutant names as printed (with subscripts); the same in every language. */
export const POLLUTANT_SYMBOLS = { no2: 'NO₂', pm25: 'PM₂.₅', pm10: 'PM₁₀' } as const;

/** The English texts. */
export const en = {
  title: 'Street-level environment report',
  subtitle: 'Air quality, wind comfort and thermal comfort',
  generated: (when: string) => `Generated ${when}`,
  page: (n: number, of: number) => `Page ${n} of ${of}`,
  footer: 'svc-api street-level environmental statistics',

  metricNames: { air: 'Air quality', wind: 'Wind comfort', thermal: 'Thermal comfort' },
  scoreLabels: {
    Excellent: 'Excellent', 'Very good': 'Very good', Good: 'Good', Moderate: 'Moderate', Poor: 'Poor', Bad: 'Bad',
  },
  belaqiLabels: ['Excellent', 'Very good', 'Good', 'Fairly good', 'Moderate', 'Poor', 'Very poor', 'Bad', 'Very bad', 'Horrible'],
  windClasses: ['Calm', 'Slightly windy', 'Windy', 'Very windy', 'Danger'],
  utciClasses: [
    'Extreme cold', 'Very strong cold stress', 'Strong cold stress', 'Moderate cold stress', 'Slight cold stress',
    'Comfortable', 'Moderate heat stress', 'Strong heat stress', 'Very strong heat stress', 'Extreme heat',
  ],
  seasons: { winter: 'Winter', spring: 'Spring', summer: 'Summer', autumn: 'Autumn' },

  location: {
    title: 'Location',
    address: 'Address',
    coordinates: 'Coordinates',
    coordinatesValue: (lat: string, lon: string) => `${lat}, ${lon} (WGS 84)`,
    area: 'Area',
    cityArea: (city: string) => `${city}, street-level model`,
    cityNationwideArea: (city: string) => `${city}, nationwide model (no street-level model here)`,
    nationwideArea: 'Belgium, nationwide model',
    dataset: 'Dataset',
    datasetValue: (id: string, cell: string) => `${id}, grid cells of ${cell}`,
    sampling: 'Sampling',
    samplingPoint: 'The grid cell containing the location.',
    samplingRadius: (n: string, r: string) => `Average of the ${n} outdoor grid cells whose centres lie within ${r} of the location.`,
    samplingNearest: (n: string, d: string) =>
      `The location is inside a building: the ${n} nearest outdoor grid cells, ${d} away, are used.`,
    samplingContaining: (cell: string, r: string) =>
      `The ${cell} grid cell containing the location. The nationwide data hold one value per cell, so the requested radius of ${r} does not apply.`,
    period: 'Period',
    periodValue: (year: string, hours: string) => `Reference year ${year}, ${hours} hourly values`,
  },

  summary: {
    title: 'Summary',
    rating: 'Rating',
    outOf: '/ 10',
    scoreLine: (score: string, label: string) => `Score ${score} / 10, ${label}`,
    air: (good: string, limiting: string) => `Good air (BelAQI 1 to 4) ${good} of the hours; limiting pollutant ${limiting}.`,
    wind: (calm: string, mean: string) => `Calm ${calm} of the hours; mean wind at pedestrian height ${mean}.`,
    thermal: (comfort: string, days: string) =>
      `Comfortable ${comfort} of summer daytime hours; ${days} days with strong heat stress.`,
    howToRead:
      'Ratings and scores run from 0 to 10; higher is better. Labels follow the score: 9 and above Excellent, 7.5 Very good, 6 Good, 4 Moderate, 2 Poor, below 2 Bad.',
    /** The metric as the subject of `absent`. */
    absentNames: { air: 'Air quality', wind: 'Wind comfort', thermal: 'Thermal comfort' },
    absent: (metric: string, why: string) => `${metric} is not part of this report: ${why}.`,
    notInScope: 'the API key used does not include it',
    notModelled: 'the data for this location do not model it',
  },

  air: {
    intro:
      'Air quality is graded hour by hour with the Belgian air quality index BelAQI (IRCEL-CELINE) over NO₂, PM₂.₅ and PM₁₀, from 1 (Excellent) to 10 (Horrible): the worst pollutant sets the class of the hour. Hours in classes 1 to 4 count as good air. Ozone is not modelled at street level.',
    rating: 'Rating',
    ratingNote: (good: string) => `good air in ${good} of the graded hours`,
    score: 'Score',
    scoreNote: 'the worst pollutant’s annual mean on the WHO 2021 guideline ladder',
    annualMean: (p: string) => `Annual mean ${p}`,
    meanNote: (who: string, eu: string, sub: string) => `WHO guideline ${who}, EU limit ${eu}; subscore ${sub}`,
    noData: 'no data',
    limiting: 'Limiting pollutant',
    dominant: 'Most often sets the hourly index',
    dominantValue: (p: string, share: string) => `${p}, ${share} of the hours`,
    dayNight: 'Good air by day / by night',
    dayNightNote: 'day 08:00–20:00, night 20:00–08:00 local time',
    bestWorst: 'Best / worst month',
    graded: 'Hours graded',
    benchmark: 'City-centre reference',
    benchmarkValue: (city: string, diff: string) => `${city} good air; this location ${diff} percentage points`,
    monthlyTitle: 'Good air per month',
    monthlyCaption: 'Share of graded hours in BelAQI classes 1 to 4, per month.',
    distributionTitle: 'Hours per BelAQI class',
    distributionCaption: 'Share of graded hours in each class of the index, official BelAQI colours.',
    explain:
      'The rating says how often the air is good. The score compares the yearly averages with the WHO 2021 air quality guidelines: a pollutant at or below the guideline scores 10, at the first interim target 2; the worst pollutant decides.',
  },

  wind: {
    intro:
      'Pedestrian wind comfort is judged hour by hour from the mean wind speed at pedestrian height and the gusts: Calm below 4 m/s, Slightly windy 4 to 6 m/s, Windy 6 to 8 m/s, Very windy above 8 m/s or with gusts of 10 m/s and more, Danger above 15 m/s.',
    rating: 'Rating',
    ratingNote: 'the lower of the score and the windiest hour’s ladder',
    score: 'Score',
    scoreNote: 'exceedance method: each comfort threshold may be passed in 5% of the hours, danger in 0.05%',
    calm: 'Calm hours',
    mean: 'Mean wind speed',
    p95: '95th percentile',
    maxGust: 'Strongest gust',
    worst: 'Windiest hour',
    worstValue: (speed: string, hours: string) => `${speed} effective speed (${hours} h within 0.5 m/s)`,
    exceedance: 'Hours above each threshold',
    thresholds: {
      above_frequent_sitting: 'Above 2.5 m/s (frequent sitting)',
      slightly_windy_or_worse: 'Slightly windy or worse',
      windy_or_worse: 'Windy or worse',
      very_windy_or_worse: 'Very windy or worse',
      danger: 'Danger',
    },
    allowance: (a: string) => `allowance ${a}`,
    distributionTitle: 'Hours per wind class',
    distributionCaption: 'Share of the hours in each pedestrian wind class.',
    monthlyTitle: 'Mean wind speed per month',
    monthlyCaption: 'Mean wind speed at pedestrian height, m/s.',
    explain:
      'The effective speed of an hour is the larger of the mean speed and 0.8 times the gust. The rating is capped by the windiest hour: below 10 m/s it does not limit, at 22 m/s and above it gives 0.',
  },

  thermal: {
    intro:
      'Thermal comfort uses the Universal Thermal Climate Index (UTCI), the temperature that feels the same, from air temperature, humidity, wind and sunshine. Between 9 and 26 °C there is no thermal stress (comfortable); 0 to 32 °C is acceptable.',
    rating: 'Rating',
    ratingNote: (season: string) => `comfortable daytime share of the weakest outdoor season (${season})`,
    score: 'Score',
    scoreNote: (season: string) => `acceptable daytime shares against each season’s anchors; weakest: ${season}`,
    summerDay: 'Comfortable summer daytime hours',
    heatDays: 'Days with strong heat stress',
    heatDaysNote: 'days whose highest UTCI exceeds 32 °C',
    tropicalNights: 'Tropical nights',
    tropicalNightsNote: 'nights whose lowest UTCI stays above 20 °C',
    summerNight: 'Mean UTCI of summer nights',
    vsCity: (diff: string) => `${diff} compared with the whole model area`,
    comfortAll: 'Comfortable hours, whole year',
    meanMinMax: 'Mean / lowest / highest UTCI',
    seasonalTitle: 'Comfort by season (daytime)',
    seasonalCaption: 'Share of daytime hours (08:00–20:00) that are comfortable (9 to 26 °C) and acceptable (0 to 32 °C).',
    comfortable: 'Comfortable',
    acceptable: 'Acceptable',
    monthlyTitle: 'Mean UTCI per month',
    monthlyCaption: 'Monthly mean UTCI, coloured by its UTCI stress category.',
    explain:
      'Winter is reported but not rated: cold is expected then. The rating uses spring, summer and autumn; the score also weighs how often each season stays acceptable.',
  },

  surroundings: {
    title: 'Surroundings',
    streetIntro: (size: string, cell: string) =>
      `The maps show ${size} × ${size} around the location, drawn from the same dataset as the statistics, one square per ${cell}. Buildings are dark grey; the cells used for the statistics are outlined in black and the location is marked with a cross.`,
    regionalIntro: (size: string, cell: string) =>
      `The nationwide data hold one value per ${cell} cell, so these maps show the region: ${size} × ${size} around the location. The cell used for the statistics is outlined in black and the location is marked with a cross; the thin line is the national border.`,
    aggregated: (n: string) => `Each square averages the outdoor cells of ${n} × ${n} grid cells.`,
    no2Title: 'Annual mean NO₂',
    no2Caption: 'µg/m³, in the colours of the BelAQI NO₂ classes.',
    windTitle: 'Wind comfort class',
    windCaption: 'Highest class reached in over 5% of the hours. Hatched: Danger, above 15 m/s in over 0.05% of the hours.',
    utciTitle: 'Summer daytime UTCI',
    utciCaption: 'Mean UTCI, June to August, 08:00–20:00; colours span this map’s range.',
    building: 'Building',
    outside: 'Outside the model area',
    north: 'N',
  },

  method: {
    title: 'Method and sources',
    items: [
      'Statistics cover every hour of the reference year. Months, seasons, day and night are local time (Europe/Brussels). Seasons are meteorological: winter December to February, spring March to May, summer June to August, autumn September to November.',
      'Air: the BelAQI index of an hour is the worst of the NO₂, PM₂.₅ and PM₁₀ classes; when several cells are averaged, their classes are averaged hour by hour and rounded half up. Annual means are compared with the WHO 2021 guidelines (NO₂ 10, PM₂.₅ 5, PM₁₀ 15 µg/m³).',
      'Wind: the class of an hour is the worse of the comfort class from the mean speed and the gust class (gusts of 10 m/s make an hour very windy, above 15 m/s dangerous). Thresholds follow the Lawson comfort criteria and the NEN 8100 safety limit.',
      'Thermal comfort: UTCI by the operational polynomial of Bröde et al. (2012). A strong heat stress day has a maximum above 32 °C; a tropical night stays above 20 °C from 20:00 to 08:00.',
      'Percentages and temperatures are rounded to 1 decimal, wind speeds to 2, ratings and scores to 1.',
    ],
    data: (dataset: string, year: string, computed: string) =>
      `Statistics from dataset ${dataset}, reference year ${year}, computed ${computed}.`,
    attribution: 'Attribution',
    disclaimer:
      'Modelled values describe typical conditions of the reference year at the chosen place; they are not measurements and do not replace an on-site assessment.',
  },
};

/** The texts of one report language. */
export type Messages = typeof en;
