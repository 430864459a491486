import type { FileAsset } from '../../entities/shared';
import type { ConfiguratorType } from './entities/configurator-type';
import type { TypeProductCoverage } from './entities/type-product-coverage';
import type { StaticModelStats } from './entities/type-shapes';

/**
 * Figures derived from stored data, never taken from a request: a coverage's flags and size
 * from its assets, a static model's stats from its coverage rows, a type's totals from its
 * static models' stats.
 */

function extensionOf(asset: FileAsset): string {
  const fromName =
    asset.name && asset.name.includes('.') ? asset.name.slice(asset.name.lastIndexOf('.')) : '';
  return (asset.extension || fromName).replace(/^\./, '').toLowerCase();
}

/** GLB (web viewer) and RVT (Revit) files make a variant complete. */
export function deriveCoverageFigures(coverage: TypeProductCoverage): void {
  const extensions = new Set(coverage.assets.map(extensionOf));
  coverage.glbComplete = extensions.has('glb');
  coverage.rvtComplete = extensions.has('rvt');
  coverage.complete = coverage.glbComplete && coverage.rvtComplete;
  coverage.totalFileSize = coverage.assets.reduce((sum, a) => sum + (a.fileSize ?? 0), 0);
}

export function staticModelStats(
  rows: readonly TypeProductCoverage[],
  totalModels: number,
  lastSynced: Date,
): StaticModelStats {
  const count = (test: (c: TypeProductCoverage) => boolean) => rows.filter(test).length;
  return {
    totalModels,
    modelsInDb: count((c) => c.assets.length > 0),
    modelsComplete: count((c) => c.complete),
    glbInDb: count((c) => c.glbComplete),
    rvtInDb: count((c) => c.rvtComplete),
    totalFileSize: rows.reduce((sum, c) => sum + Number(c.totalFileSize ?? 0), 0),
    lastSynced: lastSynced.toISOString(),
  };
}

export function applyTypeTotals(type: ConfiguratorType): void {
  const sum = (pick: (s: StaticModelStats) => number) =>
    type.staticModels.reduce((n, m) => n + (m.stats ? Number(pick(m.stats) ?? 0) : 0), 0);
  type.totalStaticModels = sum((s) => s.totalModels);
  type.totalStaticModelsComplete = sum((s) => s.modelsComplete);
  type.totalStaticModelsFileSize = sum((s) => s.totalFileSize);
  type.totalStaticModelsGlbInDb = sum((s) => s.glbInDb);
  type.totalStaticModelsInDb = sum((s) => s.modelsInDb);
  type.totalStaticModelsRvtInDb = sum((s) => s.rvtInDb);
}
