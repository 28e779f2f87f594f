import fs from 'node:fs';
import path from 'node:path';
import { ChatForm, modelToTsv, trainChatForm, type FormExample } from '../chatForm';
import { CORPUS_DATA, halfOf, readDevQueries, readUnseenCatalogs, type DevQuery } from './devset';

/**
 * Messages written for the chat form alone (corpus/chat-form-extra.jsonl): chat and requests with
 * no catalog, so no routing eval reads them; always learned from.
 */
function extraExamples(): FormExample[] {
  const file = path.join(CORPUS_DATA, 'chat-form-extra.jsonl');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { query: string; chat: boolean })
    .map((m) => ({ text: m.query, chat: m.chat }));
}

/** The labelled groups the chat-form model learns from: the dev half, then each unseen round. */
function groups(): [string, DevQuery[]][] {
  return [
    ['dev', readDevQueries().filter((q) => halfOf(q) === 'dev')],
    ...readUnseenCatalogs().map((c): [string, DevQuery[]] => [c.round, c.queries]),
  ];
}

const examplesOf = (queries: readonly DevQuery[]): FormExample[] =>
  queries.map((q) => ({ text: q.query, chat: q.expect.length === 0 }));

/**
 * What the chat-form model learns from: the dev half of the dev set with its negatives, the
 * unseen rounds and the extra messages — never the held-out half. `leaveOut` names groups ("dev", "r21") to train
 * without, so a group can be read by a model that never saw it.
 */
export function chatFormExamples(leaveOut: ReadonlySet<string> = new Set()): FormExample[] {
  // Six stock questions of the dev negatives ("Why is the sky blue?") are held-out negatives too.
  return [
    ...groups()
      .filter(([group]) => !leaveOut.has(group))
      .flatMap(([, queries]) => examplesOf(queries)),
    ...extraExamples(),
  ].filter((e) => !heldOut.has(e.text.toLowerCase()));
}

/** The held-out half's queries (lowercased): never learned from, whatever file they turn up in. */
const heldOut = new Set(
  readDevQueries()
    .filter((q) => halfOf(q) === 'test')
    .map((q) => q.query.toLowerCase()),
);

/** data/chat-form.tsv as the examples give it now (bench/fit-chat-form.mjs writes it). */
export function fitChatForm(): string {
  const names = groups().map(([group]) => group);
  return modelToTsv(
    trainChatForm(chatFormExamples()),
    `chat-form model (chatForm.ts): learned from ${names.join(', ')} by bench/fit-chat-form.mjs`,
  );
}

/** How a model that never saw a group reads that group's chat and requests. */
export interface HeldOutReading {
  group: string;
  chat: number;
  chatRead: number;
  requests: number;
  requestsRead: number;
}

/**
 * Leave one group out, for each group: train without it, then count its chat and its requests
 * that the model reads as chat. What the model does on wording it never saw.
 */
export function leaveOneGroupOut(): HeldOutReading[] {
  return groups().map(([group, queries]) => {
    const form = new ChatForm(trainChatForm(chatFormExamples(new Set([group]))));
    const chat = queries.filter((q) => q.expect.length === 0);
    const requests = queries.filter((q) => q.expect.length > 0);
    return {
      group,
      chat: chat.length,
      chatRead: chat.filter((q) => form.readsAsChat(q.query)).length,
      requests: requests.length,
      requestsRead: requests.filter((q) => form.readsAsChat(q.query)).length,
    };
  });
}
