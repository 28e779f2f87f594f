import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { tempDir } from '../testing/fixtures';
import { SettingsStore } from './settings';

const root = tempDir();
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

it('starts from defaults, merges patches and persists them for the next start', () => {
  const home = path.join(root, 'a');
  const store = SettingsStore.at(home);
  expect(store.get().routing.threshold).toBe(0.65);
  expect(store.get().routing.weights.intent_match).toBe(0.4);
  store.update({ routing: { threshold: 0.5, weights: { cost: 0.2 } }, skills: { disabled: ['x'] } });
  const reopened = SettingsStore.at(home).get();
  expect(reopened.routing).toMatchObject({ threshold: 0.5, topK: 3 });
  expect(reopened.routing.weights).toMatchObject({ cost: 0.2, intent_match: 0.4 });
  expect(reopened.skills.disabled).toEqual(['x']);
  expect(fs.readdirSync(home).filter((file) => file.endsWith('.tmp'))).toEqual([]);
});

it('keeps a corrupt settings file aside instead of losing it', () => {
  const home = path.join(root, 'b');
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(home, 'settings.json'), '{"routing": ');
  const store = SettingsStore.at(home);
  expect(store.loadProblem).toMatch(/not valid JSON/);
  expect(store.get().routing.threshold).toBe(0.65);
  const kept = fs.readdirSync(home).find((file) => file.startsWith('settings.json.corrupt-'));
  expect(fs.readFileSync(path.join(home, kept!), 'utf8')).toBe('{"routing": ');
  // The message says where the copy is, so the user can get their preferences back.
  expect(store.loadProblem).toContain(path.join(home, kept!));
});

it('sets aside only the fields that do not fit, keeps the rest and a copy of the file', () => {
  const home = path.join(root, 'b2');
  fs.mkdirSync(home);
  const file = path.join(home, 'settings.json');
  const text = JSON.stringify({
    skills: { disabled: ['weather-now', 7, 'deploy'], neverAutoSelect: 'oops' },
    routing: { threshold: 0.5, topK: 'three' },
    model: { provider: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1', model: 'qwen3' },
  });
  fs.writeFileSync(file, text);
  const store = SettingsStore.at(home);
  expect(store.get().skills.disabled).toEqual(['weather-now', 'deploy']);
  expect(store.get().skills.neverAutoSelect).toEqual([]);
  expect(store.get().routing).toMatchObject({ threshold: 0.5, topK: 3 });
  expect(store.get().model).toMatchObject({ provider: 'openai-compatible', model: 'qwen3' });
  expect(store.loadProblem).toMatch(/skills\.disabled\.1: .* and 2 more\); defaults used for those fields/);
  // The next change rewrites settings.json; the file as the user wrote it stays beside it.
  store.update({ routing: { threshold: 0.6 } });
  const kept = fs.readdirSync(home).find((f) => f.startsWith('settings.json.invalid-'));
  expect(fs.readFileSync(path.join(home, kept!), 'utf8')).toBe(text);
  expect(SettingsStore.at(home).get().skills.disabled).toEqual(['weather-now', 'deploy']);
});

it('rejects values outside the schema without writing anything', () => {
  const home = path.join(root, 'c');
  const store = SettingsStore.at(home);
  const update = () => store.update({ routing: { threshold: 2 } });
  expect(update).toThrow(ZodError);
  expect(update).toThrow(/"threshold"[\s\S]*expected number to be <=1/);
  expect(fs.existsSync(path.join(home, 'settings.json'))).toBe(false);
});

it('keeps the model section (no key in it) across routing updates and restarts', () => {
  const home = path.join(root, 'd');
  const store = SettingsStore.at(home);
  expect(store.get().model).toEqual({
    provider: null,
    baseURL: null,
    model: null,
    embeddingModel: null,
    arbiter: false,
    stallSeconds: 90,
  });
  store.updateModel({ provider: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1/', model: 'qwen3' });
  store.update({ routing: { threshold: 0.6 } });
  expect(SettingsStore.at(home).get().model).toEqual({
    provider: 'openai-compatible',
    baseURL: 'http://127.0.0.1:11434/v1',
    model: 'qwen3',
    embeddingModel: null,
    arbiter: false,
    stallSeconds: 90,
  });
  expect(() => store.updateModel({ baseURL: 'file:///etc/passwd' })).toThrow(/http/);
  store.updateModel({ stallSeconds: 150 });
  expect(SettingsStore.at(home).get().model.stallSeconds).toBe(150);
  expect(() => store.updateModel({ stallSeconds: 5 })).toThrow(/Enter whole seconds from 10 to 300/);
  expect(SettingsStore.at(home).get().model.stallSeconds).toBe(150);
});

it('reads a settings file written before the stall limit existed with the 90 s default', () => {
  const home = path.join(root, 'e');
  fs.mkdirSync(home);
  const model = { provider: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1', model: 'm' };
  fs.writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ model }));
  const store = SettingsStore.at(home);
  expect(store.loadProblem).toBeUndefined();
  expect(store.get().model).toMatchObject({ ...model, stallSeconds: 90 });
});
