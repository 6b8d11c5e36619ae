import { describe, expect, it } from 'vitest';
import { jsonNestsDeeperThan } from '../../server/http/json-depth.ts';

describe('jsonNestsDeeperThan', () => {
  it('counts arrays and objects together, up to the limit and one past it', () => {
    expect(jsonNestsDeeperThan('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":[{"b":[[1]]}]}', 4)).toBe(true);
    expect(jsonNestsDeeperThan('[[],[],[],[]]', 1)).toBe(true);
    expect(jsonNestsDeeperThan('[1,[2],[3]]', 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonNestsDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(jsonNestsDeeperThan('["\\"[[[[", "\\\\"]', 1)).toBe(false);
    expect(jsonNestsDeeperThan('["\\\\", [[1]]]', 2)).toBe(true);
  });

  it('reads a megabyte of nesting in one pass, without recursion', () => {
    const deep = '['.repeat(500_000) + ']'.repeat(500_000);
    expect(jsonNestsDeeperThan(deep, 64)).toBe(true);
    expect(jsonNestsDeeperThan(deep, 1_000_000)).toBe(false);
  });
});
