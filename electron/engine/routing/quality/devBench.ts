import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SkillCatalog } from '../../skills';
import { RoutingIndex } from '../lexicon';
import type { RouterConfig } from '../router';
import {
  formatSliceTable,
  halfQueries,
  relTo,
  routers,
  scoreRouter,
  thresholdCurve,
  type SliceRow,
} from './devEval';
import { installSkillSet, readDevQueries } from './devset';
import { collectExamples, fitLogistic } from './fit';
import type { Calibration } from '../calibration';

/**
 * Issue 10's quality table for `npm run bench`: every router on the dev and held-out halves of
 * the third-party dev set, by slice, and the dev half's precision@1 / false-trigger curve over T.
 */
export async function benchDevSet(
  corpusSkills: string,
  config: RouterConfig,
): Promise<Record<string, unknown>> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-bench-devset-'));
  try {
    const installDir = path.join(root, 'skills');
    const installed = installSkillSet(corpusSkills, installDir);
    const catalog = await SkillCatalog.open({
      home: root,
      userHome: root,
      workspace: root,
      extraDirs: [installDir],
      noDefaultPaths: true,
    });
    const skills = catalog.list().skills.flatMap((summary) => {
      const metadata = catalog.metadata(summary.id);
      return metadata ? [{ summary, metadata, hints: catalog.hints(summary.id) }] : [];
    });
    const start = performance.now();
    const index = new RoutingIndex(skills);
    const buildMs = Math.round(performance.now() - start);
    const queries = readDevQueries();
    const toRel = relTo(installDir);
    const halves: Record<string, Record<string, SliceRow[]>> = {};
    for (const half of ['dev', 'test'] as const) {
      halves[half] = {};
      for (const [name, router] of Object.entries(routers(index, config)))
        halves[half][name] = scoreRouter(halfQueries(queries, half), router, toRel).rows;
    }
    return {
      skills_installed: installed,
      routable: index.size,
      index_build_ms: buildMs,
      queries: { dev: halfQueries(queries, 'dev').length, held_out: halfQueries(queries, 'test').length },
      dev: halves.dev,
      held_out: halves.test,
      dev_threshold_curve: thresholdCurve(index, config, halfQueries(queries, 'dev'), toRel),
      table: [formatSliceTable('dev half', halves.dev), formatSliceTable('held-out half', halves.test)]
        .join('\n\n')
        .split('\n'),
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Refits intent_match's calibration on the dev half (never the held-out half) and returns the
 * parameters for data/calibration.json — `node bench/fit-calibration.mjs` prints them.
 */
export async function fitDevCalibration(corpusSkills: string, config: RouterConfig): Promise<Calibration> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-fit-'));
  try {
    const installDir = path.join(root, 'skills');
    installSkillSet(corpusSkills, installDir);
    const catalog = await SkillCatalog.open({
      home: root,
      userHome: root,
      workspace: root,
      extraDirs: [installDir],
      noDefaultPaths: true,
    });
    const index = new RoutingIndex(
      catalog.list().skills.flatMap((summary) => {
        const metadata = catalog.metadata(summary.id);
        return metadata ? [{ summary, metadata, hints: catalog.hints(summary.id) }] : [];
      }),
    );
    return fitLogistic(
      collectExamples(index, halfQueries(readDevQueries(), 'dev'), config, relTo(installDir)),
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
