/** Dutch texts of a report (Belgian usage). BelAQI labels are IRCEL-CELINE's Dutch labels. */
import type { Messages } from './en.js';

/** The Dutch texts. */
export const nl: Messages = {
  title: 'Omgevingsrapport op straatniveau',
  subtitle: 'Luchtkwaliteit, windcomfort en thermisch comfort',
  generated: (when) => `Opgesteld op ${when}`,
  page: (n, of) => `Pagina ${n} van ${of}`,
  footer: 'svc-api, omgevingsstatistieken op straatniveau',

  metricNames: { air: 'Luchtkwaliteit', wind: 'Windcomfort', thermal: 'Thermisch comfort' },
  scoreLabels: {
    Excellent: 'Uitstekend', 'Very good': 'Zeer goed', Good: 'Goed', Moderate: 'Middelmatig', Poor: 'Ondermaats', Bad: 'Slecht',
  },
  belaqiLabels: [
    'Uitstekend', 'Zeer goed', 'Goed', 'Vrij goed', 'Middelmatig', 'Ondermaats', 'Vrij slecht', 'Slecht', 'Zeer slecht',
    'Uitermate slecht',
  ],
  windClasses: ['Rustig', 'Licht winderig', 'Winderig', 'Zeer winderig', 'Gevaar'],
  utciClasses: [
    'Extreme koude', 'Zeer sterke koudestress', 'Sterke koudestress', 'Matige koudestress', 'Lichte koudestress',
    'Comfortabel', 'Matige hittestress', 'Sterke hittestress', 'Zeer sterke hittestress', 'Extreme hitte',
  ],
  seasons: { winter: 'Winter', spring: 'Lente', summer: 'Zomer', autumn: 'Herfst' },

  location: {
    title: 'Locatie',
    address: 'Adres',
    coordinates: 'Coördinaten',
    coordinatesValue: (lat, lon) => `${lat}; ${lon} (WGS 84)`,
    area: 'Gebied',
    cityArea: (city) => `${city}, model op straatniveau`,
    cityNationwideArea: (city) => `${city}, nationaal model (hier geen model op straatniveau)`,
    nationwideArea: 'België, nationaal model',
    dataset: 'Dataset',
    datasetValue: (id, cell) => `${id}, rastercellen van ${cell}`,
    sampling: 'Bemonstering',
    samplingPoint: 'De rastercel waarin de locatie ligt.',
    samplingRadius: (n, r) => `Gemiddelde van de ${n} buitencellen waarvan het middelpunt binnen ${r} van de locatie ligt.`,
    samplingNearest: (n, d) =>
      `De locatie ligt in een gebouw: de ${n} dichtstbijzijnde buitencellen, op ${d}, worden gebruikt.`,
    samplingContaining: (cell, r) =>
      `De rastercel van ${cell} waarin de locatie ligt. De nationale gegevens hebben één waarde per cel, dus de gevraagde straal van ${r} is niet van toepassing.`,
    period: 'Periode',
    periodValue: (year, hours) => `Referentiejaar ${year}, ${hours} uurwaarden`,
  },

  summary: {
    title: 'Samenvatting',
    rating: 'Beoordeling',
    outOf: '/ 10',
    scoreLine: (score, label) => `Score ${score} / 10, ${label}`,
    air: (good, limiting) => `Goede lucht (BelAQI 1 tot 4) ${good} van de uren; beperkende polluent ${limiting}.`,
    wind: (calm, mean) => `Rustig ${calm} van de uren; gemiddelde wind op voetgangershoogte ${mean}.`,
    thermal: (comfort, days) =>
      `Comfortabel ${comfort} van de zomeruren overdag; ${days} dagen met sterke hittestress.`,
    howToRead:
      'Beoordelingen en scores lopen van 0 tot 10; hoger is beter. De labels volgen de score: vanaf 9 Uitstekend, 7,5 Zeer goed, 6 Goed, 4 Middelmatig, 2 Ondermaats, onder 2 Slecht.',
    absentNames: { air: 'De luchtkwaliteit', wind: 'Het windcomfort', thermal: 'Het thermisch comfort' },
    absent: (metric, why) => `${metric} maakt geen deel uit van dit rapport: ${why}.`,
    notInScope: 'de gebruikte API-sleutel omvat het niet',
    notModelled: 'de gegevens voor deze locatie modelleren het niet',
  },

  air: {
    intro:
      'De luchtkwaliteit wordt uur per uur beoordeeld met de Belgische luchtkwaliteitsindex BelAQI (IRCEL-CELINE) over NO₂, PM₂.₅ en PM₁₀, van 1 (Uitstekend) tot 10 (Uitermate slecht): de slechtste polluent bepaalt de klasse van het uur. Uren in klasse 1 tot 4 tellen als goede lucht. Ozon wordt op straatniveau niet gemodelleerd.',
    rating: 'Beoordeling',
    ratingNote: (good) => `goede lucht in ${good} van de beoordeelde uren`,
    score: 'Score',
    scoreNote: 'het jaargemiddelde van de slechtste polluent op de ladder van de WHO-richtlijnen 2021',
    annualMean: (p) => `Jaargemiddelde ${p}`,
    meanNote: (who, eu, sub) => `WHO-richtwaarde ${who}, EU-grenswaarde ${eu}; deelscore ${sub}`,
    noData: 'geen gegevens',
    limiting: 'Beperkende polluent',
    dominant: 'Bepaalt het vaakst de uurindex',
    dominantValue: (p, share) => `${p}, ${share} van de uren`,
    dayNight: 'Goede lucht overdag / ’s nachts',
    dayNightNote: 'dag 08:00–20:00, nacht 20:00–08:00 lokale tijd',
    bestWorst: 'Beste / slechtste maand',
    graded: 'Beoordeelde uren',
    benchmark: 'Referentie stadscentrum',
    benchmarkValue: (city, diff) => `${city} goede lucht; deze locatie ${diff} procentpunt`,
    monthlyTitle: 'Goede lucht per maand',
    monthlyCaption: 'Aandeel van de beoordeelde uren in BelAQI-klasse 1 tot 4, per maand.',
    distributionTitle: 'Uren per BelAQI-klasse',
    distributionCaption: 'Aandeel van de beoordeelde uren in elke klasse van de index, officiële BelAQI-kleuren.',
    explain:
      'De beoordeling zegt hoe vaak de lucht goed is. De score vergelijkt de jaargemiddelden met de WHO-richtlijnen 2021: een polluent op of onder de richtwaarde scoort 10, op het eerste tussendoel 2; de slechtste polluent beslist.',
  },

  wind: {
    intro:
      'Het windcomfort voor voetgangers wordt uur per uur beoordeeld op basis van de gemiddelde windsnelheid op voetgangershoogte en de windstoten: Rustig onder 4 m/s, Licht winderig 4 tot 6 m/s, Winderig 6 tot 8 m/s, Zeer winderig boven 8 m/s of bij windstoten van 10 m/s en meer, Gevaar boven 15 m/s.',
    rating: 'Beoordeling',
    ratingNote: 'de laagste van de score en de ladder van het winderigste uur',
    score: 'Score',
    scoreNote: 'overschrijdingsmethode: elke comfortdrempel mag in 5% van de uren overschreden worden, gevaar in 0,05%',
    calm: 'Rustige uren',
    mean: 'Gemiddelde windsnelheid',
    p95: '95e percentiel',
    maxGust: 'Sterkste windstoot',
    worst: 'Winderigste uur',
    worstValue: (speed, hours) => `${speed} effectieve snelheid (${hours} u binnen 0,5 m/s)`,
    exceedance: 'Uren boven elke drempel',
    thresholds: {
      above_frequent_sitting: 'Boven 2,5 m/s (langdurig zitten)',
      slightly_windy_or_worse: 'Licht winderig of erger',
      windy_or_worse: 'Winderig of erger',
      very_windy_or_worse: 'Zeer winderig of erger',
      danger: 'Gevaar',
    },
    allowance: (a) => `toegestaan ${a}`,
    distributionTitle: 'Uren per windklasse',
    distributionCaption: 'Aandeel van de uren in elke windklasse voor voetgangers.',
    monthlyTitle: 'Gemiddelde windsnelheid per maand',
    monthlyCaption: 'Gemiddelde windsnelheid op voetgangershoogte, m/s.',
    explain:
      'De effectieve snelheid van een uur is de grootste van de gemiddelde snelheid en 0,8 keer de windstoot. De beoordeling wordt begrensd door het winderigste uur: onder 10 m/s beperkt het niet, vanaf 22 m/s geeft het 0.',
  },

  thermal: {
    intro:
      'Thermisch comfort gebruikt de Universal Thermal Climate Index (UTCI), de gevoelstemperatuur op basis van luchttemperatuur, vochtigheid, wind en zon. Tussen 9 en 26 °C is er geen thermische stress (comfortabel); 0 tot 32 °C is aanvaardbaar.',
    rating: 'Beoordeling',
    ratingNote: (season) => `comfortabel aandeel overdag van het zwakste buitenseizoen (${season})`,
    score: 'Score',
    scoreNote: (season) => `aanvaardbare aandelen overdag tegenover de ankers van elk seizoen; zwakste: ${season}`,
    summerDay: 'Comfortabele zomeruren overdag',
    heatDays: 'Dagen met sterke hittestress',
    heatDaysNote: 'dagen waarvan de hoogste UTCI boven 32 °C ligt',
    tropicalNights: 'Tropische nachten',
    tropicalNightsNote: 'nachten waarvan de laagste UTCI boven 20 °C blijft',
    summerNight: 'Gemiddelde UTCI van zomernachten',
    vsCity: (diff) => `${diff} ten opzichte van het hele modelgebied`,
    comfortAll: 'Comfortabele uren, hele jaar',
    meanMinMax: 'Gemiddelde / laagste / hoogste UTCI',
    seasonalTitle: 'Comfort per seizoen (overdag)',
    seasonalCaption: 'Aandeel van de uren overdag (08:00–20:00) dat comfortabel (9 tot 26 °C) en aanvaardbaar (0 tot 32 °C) is.',
    comfortable: 'Comfortabel',
    acceptable: 'Aanvaardbaar',
    monthlyTitle: 'Gemiddelde UTCI per maand',
    monthlyCaption: 'Maandgemiddelde UTCI, gekleurd volgens de UTCI-stresscategorie.',
    explain:
      'De winter wordt getoond maar niet beoordeeld: kou is dan te verwachten. De beoordeling gebruikt lente, zomer en herfst; de score weegt ook hoe vaak elk seizoen aanvaardbaar blijft.',
  },

  surroundings: {
    title: 'Omgeving',
    streetIntro: (size, cell) =>
      `De kaarten tonen ${size} × ${size} rond de locatie, uit dezelfde dataset als de statistieken, één vierkant per ${cell}. Gebouwen zijn donkergrijs; de cellen die voor de statistieken gebruikt zijn, zijn zwart omlijnd en de locatie is met een kruis gemarkeerd.`,
    regionalIntro: (size, cell) =>
      `De nationale gegevens hebben één waarde per cel van ${cell}, dus deze kaarten tonen de regio: ${size} × ${size} rond de locatie. De cel die voor de statistieken gebruikt is, is zwart omlijnd en de locatie is met een kruis gemarkeerd; de dunne lijn is de landsgrens.`,
    aggregated: (n) => `Elk vierkant middelt de buitencellen van ${n} × ${n} rastercellen.`,
    no2Title: 'Jaargemiddelde NO₂',
    no2Caption: 'µg/m³, in de kleuren van de BelAQI-klassen voor NO₂.',
    windTitle: 'Windcomfortklasse',
    windCaption: 'Hoogste klasse bereikt in meer dan 5% van de uren. Gearceerd: Gevaar, boven 15 m/s in meer dan 0,05% van de uren.',
    utciTitle: 'UTCI overdag in de zomer',
    utciCaption: 'Gemiddelde UTCI, juni tot augustus, 08:00–20:00; de kleuren bestrijken het bereik van deze kaart.',
    building: 'Gebouw',
    outside: 'Buiten het modelgebied',
    north: 'N',
  },

  method: {
    title: 'Methode en bronnen',
    items: [
      'De statistieken omvatten elk uur van het referentiejaar. Maanden, seizoenen, dag en nacht volgen de lokale tijd (Europe/Brussels). Seizoenen zijn meteorologisch: winter december tot februari, lente maart tot mei, zomer juni tot augustus, herfst september tot november.',
      'Lucht: de BelAQI-index van een uur is de slechtste van de klassen voor NO₂, PM₂.₅ en PM₁₀; worden meerdere cellen gemiddeld, dan worden hun klassen uur per uur gemiddeld en half naar boven afgerond. Jaargemiddelden worden vergeleken met de WHO-richtlijnen 2021 (NO₂ 10, PM₂.₅ 5, PM₁₀ 15 µg/m³).',
      'Wind: de klasse van een uur is de slechtste van de comfortklasse volgens de gemiddelde snelheid en de windstootklasse (windstoten van 10 m/s maken een uur zeer winderig, boven 15 m/s gevaarlijk). De drempels volgen de comfortcriteria van Lawson en de veiligheidsgrens van NEN 8100.',
      'Thermisch comfort: UTCI volgens de operationele veelterm van Bröde et al. (2012). Een dag met sterke hittestress heeft een maximum boven 32 °C; een tropische nacht blijft van 20:00 tot 08:00 boven 20 °C.',
      'Percentages en temperaturen zijn afgerond op 1 decimaal, windsnelheden op 2, beoordelingen en scores op 1.',
    ],
    data: (dataset, year, computed) =>
      `Statistieken uit dataset ${dataset}, referentiejaar ${year}, berekend op ${computed}.`,
    attribution: 'Bronvermelding',
    disclaimer:
      'Gemodelleerde waarden beschrijven de typische omstandigheden van het referentiejaar op de gekozen plek; het zijn geen metingen en ze vervangen geen beoordeling ter plaatse.',
  },
};
