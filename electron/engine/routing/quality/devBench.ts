import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SkillCatalog } from '../../skills';
import { indexedSkills, RoutingIndex } from '../lexicon';
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
import { installSkillSet, readDevQueries, readSkillSet, readUnseenCatalogs } from './devset';
import {
  fitCalibration,
  querySet,
  triggerEvalSet,
  type FitOptions,
  type FitResult,
  type FitSet,
} from './fit';
import { sampledSets, scoreSampledCatalogs } from './subsets';

/** The dev set's skills installed in a throwaway folder and indexed; `use` runs while they exist. */
async function withDevIndex<T>(
  corpusSkills: string,
  use: (index: RoutingIndex, toRel: (id: string) => string, installed: number, buildMs: number) => T,
  folders = readSkillSet(),
): Promise<T> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-devset-'));
  try {
    const installDir = path.join(root, 'skills');
    const installed = installSkillSet(corpusSkills, installDir, folders);
    const catalog = await SkillCatalog.open({
      home: root,
      userHome: root,
      workspace: root,
      extraDirs: [installDir],
      noDefaultPaths: true,
    });
    const skills = indexedSkills(catalog);
    const start = performance.now();
    const index = new RoutingIndex(skills);
    const buildMs = Math.round(performance.now() - start);
    return use(index, relTo(installDir), installed, buildMs);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Issue 10's quality table for `npm run bench`: every router on the dev and held-out halves of
 * the third-party dev set, by slice, SkillDeck on sampled 126-skill catalogs, and the dev half's
 * precision@1 / false-trigger curve over T.
 */
export async function benchDevSet(
  corpusSkills: string,
  config: RouterConfig,
): Promise<Record<string, unknown>> {
  const unseen: Record<string, Record<string, SliceRow[]>> = {};
  for (const catalog of readUnseenCatalogs())
    unseen[catalog.round] = await withDevIndex(
      corpusSkills,
      (index, toRel) =>
        Object.fromEntries(
          Object.entries(routers(index, config)).map(([name, router]) => [
            name,
            scoreRouter(catalog.queries, router, toRel).rows,
          ]),
        ),
      catalog.skills,
    );
  return withDevIndex(corpusSkills, (index, toRel, installed, buildMs) => {
    const queries = readDevQueries();
    const halves: Record<string, Record<string, SliceRow[]>> = {};
    for (const half of ['dev', 'test'] as const) {
      const list = halfQueries(queries, half);
      halves[half] = {};
      for (const [name, router] of Object.entries(routers(index, config)))
        halves[half][name] = scoreRouter(list, router, toRel).rows;
      halves[half]['skilldeck, 126-skill catalogs (8 samples)'] = scoreSampledCatalogs(
        index,
        readSkillSet(),
        list,
        config,
        toRel,
      );
    }
    return {
      skills_installed: installed,
      routable: index.size,
      index_build_ms: buildMs,
      queries: { dev: halfQueries(queries, 'dev').length, held_out: halfQueries(queries, 'test').length },
      dev: halves.dev,
      held_out: halves.test,
      dev_threshold_curve: thresholdCurve(index, config, halfQueries(queries, 'dev'), toRel),
      unseen_catalogs: unseen,
      table: [
        formatSliceTable('dev half', halves.dev),
        formatSliceTable('held-out half', halves.test),
        ...Object.entries(unseen).map(([round, rows]) =>
          formatSliceTable(`${round}: an unseen catalog, its queries written blind`, rows),
        ),
      ]
        .join('\n\n')
        .split('\n'),
    };
  });
}

/**
 * What the calibration is fitted on (never the held-out half): the dev half over the whole skill
 * set, over four sampled 126-skill catalogs, and the bundled skills' trigger evals (a dozen-skill
 * catalog of near misses), so that T holds from a small install to a thousand skills.
 */
export function devFitSets(
  index: RoutingIndex,
  toRel: (id: string) => string,
  bundled: { index: RoutingIndex; ids: string[] },
): FitSet[] {
  const dev = halfQueries(readDevQueries(), 'dev');
  return [
    querySet('dev half', index, dev, toRel),
    ...sampledSets(index, readSkillSet(), dev, toRel, 4).map((set, i) =>
      querySet(`dev half, 126-skill catalog ${i + 1}`, set.index, set.queries, toRel),
    ),
    triggerEvalSet('bundled skills trigger evals', bundled.index, bundled.ids),
  ];
}

/** The bundled skills' catalog and the ids of those that carry trigger evals. */
export async function bundledEvalCatalog(
  bundledDir: string,
): Promise<{ index: RoutingIndex; ids: string[] }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-fit-bundled-'));
  try {
    const catalog = await SkillCatalog.open({
      home,
      userHome: home,
      workspace: home,
      extraDirs: [bundledDir],
      noDefaultPaths: true,
    });
    const index = new RoutingIndex(indexedSkills(catalog));
    const ids = [...index.all.keys()].filter((id) => fs.existsSync(path.join(id, 'evals')));
    return { index, ids };
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Refits intent_match's calibration (devFitSets) and returns the parameters for
 * data/calibration.json; `node bench/fit-calibration.mjs` prints them.
 */
export async function fitDevCalibration(
  corpusSkills: string,
  bundledDir: string,
  config: RouterConfig,
  options: FitOptions = {},
): Promise<FitResult> {
  const bundled = await bundledEvalCatalog(bundledDir);
  return withDevIndex(corpusSkills, (index, toRel) =>
    fitCalibration(devFitSets(index, toRel, bundled), config, options),
  );
}
