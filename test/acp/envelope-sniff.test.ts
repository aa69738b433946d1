/** Reading a message's id and kind from its start, for lines too large to parse. */
import { describe, expect, test } from "bun:test";
import { sniffEnvelope } from "../../src/acp/envelope-sniff.ts";

describe("sniffEnvelope", () => {
  test("reads a number, string or null id of a request", () => {
    expect(sniffEnvelope('{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"x":')).toEqual({
      id: 5,
      method: true,
      response: false,
    });
    expect(sniffEnvelope('{ "id" : "a\\"b" , "method": "m"')).toEqual({ id: 'a"b', method: true, response: false });
    expect(sniffEnvelope('{"id":null,"method":"m","params":[')).toEqual({ id: null, method: true, response: false });
  });

  test("skips members before the id, nested and with quoted braces", () => {
    const head = '{"params":{"a":[1,{"b":"}]\\""}]},"method":"m","id":-3.5,"more":"';
    expect(sniffEnvelope(head)).toEqual({ id: -3.5, method: true, response: false });
  });

  test("knows a response by its result or error member", () => {
    expect(sniffEnvelope('{"jsonrpc":"2.0","id":3,"result":{"content":"aaa')).toEqual({
      id: 3,
      method: false,
      response: true,
    });
    expect(sniffEnvelope('{"id":"r","error":{"code":1')).toEqual({ id: "r", method: false, response: true });
  });

  test("reads no id when the start does not hold one whole", () => {
    expect(sniffEnvelope('{"method":"m","params":{"text":"aaaa')).toEqual({ method: true, response: false });
    expect(sniffEnvelope('{"id":12')).toEqual({ method: false, response: false });
    expect(sniffEnvelope('{"id":"abc')).toEqual({ method: false, response: false });
    expect(sniffEnvelope('{"id":{"x":1},"method":"m"')).toEqual({ method: true, response: false });
  });

  test("reads nothing from what is not an object", () => {
    expect(sniffEnvelope('[{"id":1,"method":"m"}')).toEqual({ method: false, response: false });
    expect(sniffEnvelope("not json")).toEqual({ method: false, response: false });
    expect(sniffEnvelope("")).toEqual({ method: false, response: false });
  });
});
