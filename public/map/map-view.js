/**
 * The MapLibre map of the page: a plain background (no base map: nothing is fetched from elsewhere), the city's
 * boundary, one vector source per data layer (thermal, wind, air, fed with the tile template of the shown timestep's
 * TileJSON, and the annual layers of the reference year), and the extruded buildings on top. Only the chosen data layer is visible, so only its tiles are fetched.
 * Sources are fed tile URLs (not the TileJSON URL) so a new step or a re-signed catalog only swaps the template and
 * the view stays where it is. The style names no glyphs and no sprite: there are no text or icon layers.
 */
import { Map as MapLibreMap, NavigationControl, ScaleControl } from '%MAPLIBRE%/maplibre-gl.mjs';

/** The timed data layers, in the order the page offers them. */
export const DATA_LAYERS = ['thermal', 'wind', 'air'];

/** The annual layer of each timed layer's metric (the reference year). */
export const annualLayer = (layer) => `annual_${layer}`;

/** Every data layer the map may show. */
export const ALL_DATA_LAYERS = [...DATA_LAYERS, ...DATA_LAYERS.map(annualLayer)];

const BACKGROUND = '#eceff3';
const BUILDING = '#a7b0bc';
const fillId = (layer) => `${layer}-cells`;

/** The map and the few operations the page performs on it. */
export class MapView {
  /** Creates the map in `container`, framed on `bounds` ([w, s, e, n]); resolves once the style is loaded. */
  static create(container, bounds) {
    const map = new MapLibreMap({
      container,
      style: { version: 8, sources: {}, layers: [{ id: 'background', type: 'background', paint: { 'background-color': BACKGROUND } }] },
      bounds,
      fitBoundsOptions: { padding: 24 },
      attributionControl: false, // the data's attribution is in the side panel
      maxPitch: 60,
      canvasContextAttributes: { preserveDrawingBuffer: true, antialias: true },
      cooperativeGestures: false,
    });
    map.addControl(new NavigationControl({ visualizePitch: true }), 'top-right');
    map.addControl(new ScaleControl({ unit: 'metric' }), 'bottom-left');
    return new Promise((resolve, reject) => {
      map.once('load', () => resolve(new MapView(map)));
      map.once('error', (e) => (map.loaded() ? undefined : reject(e.error)));
    });
  }

  constructor(map) {
    this.map = map;
    this.visible = undefined;
  }

  /** Draws the city's boundary (a GeoJSON Feature) as a thin outline. */
  setBoundary(feature) {
    this.map.addSource('boundary', { type: 'geojson', data: feature });
    this.map.addLayer({ id: 'boundary-line', type: 'line', source: 'boundary', paint: { 'line-color': '#475569', 'line-width': 1.5, 'line-dasharray': [3, 2] } });
  }

  /**
   * Sets the tiles of source `id` from a TileJSON document; true when the source was (re)created now, and its layers
   * must be added. `renew`: drop the source and its layers and make them again rather than swap the template in place
   * (MapLibre can leave tiles still loading from the old template waiting for ever when the template changes under
   * them, which is what happens when URLs expire while tiles are in flight).
   */
  #feed(id, tilejson, renew) {
    const source = this.map.getSource(id);
    if (source && !renew) {
      if (source.tiles?.[0] !== tilejson.tiles[0]) source.setTiles(tilejson.tiles);
      return false;
    }
    if (source) {
      for (const layer of this.map.getStyle().layers.filter((l) => l.source === id)) this.map.removeLayer(layer.id);
      this.map.removeSource(id);
    }
    this.map.addSource(id, {
      type: 'vector', tiles: tilejson.tiles, minzoom: tilejson.minzoom, maxzoom: tilejson.maxzoom,
      bounds: tilejson.bounds, attribution: tilejson.attribution,
    });
    return true;
  }

  /** Shows the buildings of a TileJSON document as extrusions (heights in metres); `renew` as for `showData`. */
  setBuildings(tilejson, renew = false) {
    if (!this.#feed('buildings', tilejson, renew)) return;
    this.map.addLayer({
      id: 'buildings-3d', type: 'fill-extrusion', source: 'buildings', 'source-layer': tilejson.vector_layers[0].id,
      paint: {
        'fill-extrusion-color': BUILDING,
        'fill-extrusion-height': ['coalesce', ['to-number', ['get', 'Height']], 0],
        'fill-extrusion-base': 0,
        'fill-extrusion-opacity': 0.92,
      },
    });
  }

  /** Shows or hides the buildings. */
  setBuildingsVisible(visible) {
    if (this.map.getLayer('buildings-3d')) this.map.setLayoutProperty('buildings-3d', 'visibility', visible ? 'visible' : 'none');
  }

  /**
   * Shows data layer `layer` from a TileJSON document coloured by `color` (a MapLibre expression); the other data
   * layers are hidden. `tilejson` undefined: the layer has no data at this step, nothing is shown. `renew`: the URLs
   * were signed again; the source is made anew.
   */
  showData(layer, tilejson, color, renew = false) {
    for (const other of ALL_DATA_LAYERS) {
      if (other !== layer && this.map.getLayer(fillId(other))) this.map.setLayoutProperty(fillId(other), 'visibility', 'none');
    }
    this.visible = tilejson === undefined ? undefined : layer;
    if (tilejson === undefined) {
      if (this.map.getLayer(fillId(layer))) this.map.setLayoutProperty(fillId(layer), 'visibility', 'none');
      return;
    }
    if (this.#feed(`${layer}-data`, tilejson, renew)) {
      this.map.addLayer({
        id: fillId(layer), type: 'fill', source: `${layer}-data`, 'source-layer': tilejson.vector_layers[0].id,
        paint: { 'fill-color': color, 'fill-opacity': 0.88, 'fill-antialias': false },
      }, this.map.getLayer('boundary-line') ? 'boundary-line' : undefined);
      // Data below the outline and the buildings, whichever came first.
      if (this.map.getLayer('buildings-3d')) this.map.moveLayer('buildings-3d');
    } else {
      this.map.setPaintProperty(fillId(layer), 'fill-color', color);
    }
    this.map.setLayoutProperty(fillId(layer), 'visibility', 'visible');
  }

  /** Recolours the visible data layer. */
  setColor(color) {
    if (this.visible !== undefined) this.map.setPaintProperty(fillId(this.visible), 'fill-color', color);
  }

  /** Properties of the visible data layer's feature and of a building at a screen point (either may be undefined). */
  featuresAt(point) {
    const layers = [this.visible && fillId(this.visible), this.map.getLayer('buildings-3d') && 'buildings-3d'].filter(Boolean);
    const found = layers.length === 0 ? [] : this.map.queryRenderedFeatures(point, { layers });
    const data = found.find((f) => f.layer.id !== 'buildings-3d');
    const building = found.find((f) => f.layer.id === 'buildings-3d');
    return { data: data?.properties, building: building?.properties };
  }
}
