import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  GitfleetError,
  InternalError,
  isGitfleetError,
  isTerminal,
} from '../../../src/core/model/gitfleet-error.js';

test('A gitfleet error takes its subject from the start of its message when none is given.', () => {
  const error = new GitfleetError('refs/heads/main: a blob, not a commit', { code: 'WrongObjectType' });
  assert.equal(error.subject, 'refs/heads/main');
  assert.equal(error.terminal, false);
  assert.equal(error.name, 'GitfleetError');
});

test('A subclass keeps its own name, and an explicit subject wins over the message.', () => {
  const error = new InternalError('x: y: z', 'the subject');
  assert.equal(error.name, 'InternalError');
  assert.equal(error.subject, 'the subject');
  assert.ok(error instanceof Error);
});

test('toJSON is the code, the message, the subject when there is one, and terminal.', () => {
  assert.deepEqual(new GitfleetError('no colon here', { code: 'C', terminal: true }).toJSON(), {
    code: 'C',
    message: 'no colon here',
    terminal: true,
  });
  assert.equal(
    JSON.stringify(new GitfleetError('a: b', { code: 'C' })),
    '{"code":"C","message":"a: b","subject":"a","terminal":false}',
  );
});

test('Only a gitfleet error marked terminal is terminal; a plain error with the property is not.', () => {
  assert.equal(isTerminal(new GitfleetError('a: b', { code: 'C', terminal: true })), true);
  assert.equal(isTerminal(new GitfleetError('a: b', { code: 'C' })), false);
  assert.equal(isTerminal(Object.assign(new Error('a'), { terminal: true })), false);
  assert.equal(isGitfleetError(new GitfleetError('a', { code: 'C' }), 'C'), true);
  assert.equal(isGitfleetError(new GitfleetError('a', { code: 'C' }), 'D'), false);
});
