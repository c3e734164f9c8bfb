import type { Logger } from 'pino';
import type { CoverageMap, HookSite } from '../instrument/coverageModel.ts';
import { mergeUsage, type Usage, type UsageTable } from '../instrument/usage.ts';
import { dummyFor } from '../values/dummyTable.ts';
import { fixedOnPath } from '../values/apiTypes/platformTypes.ts';
import type { ValueSource } from '../values/providers.ts';
import type { Degradation } from '../core/runResult.ts';
import type { TraceTable } from '../protocol/trace.ts';
import { isExhausted, type Exhausted, type FailedAttempt, type Proposal, type ValueRequest } from '../values/types.ts';
import type { Category, ElementKind } from '../core/categories.ts';
import { isWithin, liveIds, nearestDefined, OBSERVED, usageKeyOf, type IsolateRequest } from './elementPaths.ts';
import type { DefinitionCheck } from './checkDefinition.ts';
import { ProviderBroker, type ProviderError } from './providerBroker.ts';
import { TraceStore } from './traceStore.ts';
import { TRACE_FALLBACK, traceProvider } from '../values/trace/traceProvider.ts';

/** Providers whose values are the trace generator's: learnt again when their trace grows. */
const TRACE_MADE: ReadonlySet<string> = new Set([traceProvider.name, TRACE_FALLBACK]);

/** One injected element and the definition that currently stands for it. */
export interface Definition {
  readonly id: string;
  readonly kind: ElementKind;
  readonly parent: string | undefined;
  readonly name: string;
  readonly usageKey: string;
  readonly line: number;
  /** Why it was first requested: the error the snippet would have raised. */
  readonly message: string;
  proposal: Proposal;
  provider: string;
  attempts: number;
  readonly history: FailedAttempt[];
  readonly rejected: Category[];
  /** Fallback categories picked so far. */
  fallbacks: number;
  /** Learnt as if the snippet declared no type for it (or its owner): the declared one did worse (setAsideDeclared). */
  undeclared?: true;
}

export interface BookContext {
  readonly snippet: string;
  readonly map: CoverageMap;
  readonly usage: UsageTable;
  readonly values: ValueSource;
  readonly maxAttempts: number;
  readonly maxInjections: number;
  /** Where a host bug's stack goes. */
  readonly log: Logger;
  /** Checks a generator's definition by execution before it is adopted (llm mode, src/engine/checkDefinition.ts). */
  readonly check?: DefinitionCheck;
  /**
   * Elements whose values stand as given (diff's edge values: `null`, an object without the member
   * read): neither they nor anything below them is injected, refined or blamed.
   */
  readonly held?: ReadonlySet<string>;
}

/**
 * The host's record of every element and its definition, across the runs of one snippet. It
 * answers the isolate's value requests, feeds failures back to the provider (through the
 * ProviderBroker), and falls back to the classifier's dummy after `maxAttempts`.
 */
export class DefinitionBook {
  readonly defs = new Map<string, Definition>();
  /** Set when a definition was added or replaced during the current run. */
  changed = false;
  /** Whether recording proxies may be injected in the current run; false for the measured run. */
  mayProbe = false;
  /** Elements a recording proxy stands for in the current run. */
  readonly probed = new Set<string>();
  readonly traces = new TraceStore();
  /**
   * Providers asked, definitions retried and host bugs met since the session last zeroed it: a run
   * that left it at 0 answered every request from the definitions alone (SnippetSession's replays).
   */
  consulted = 0;
  /** Recording proxies injected over all runs, and learning runs. */
  probesInjected = 0;
  learningRuns = 0;
  /** A bug of the host met while answering (not a provider's failure): the snippet ends as `internal-error`. */
  hostError: Error | undefined;
  private readonly ctx: BookContext;
  private readonly broker: ProviderBroker;

  constructor(ctx: BookContext) {
    this.ctx = ctx;
    this.broker = new ProviderBroker(ctx.values);
  }

  /** The providers' own failures, e.g. an LLM endpoint that stayed dead. */
  get providerErrors(): readonly ProviderError[] {
    return this.broker.errors;
  }

  /** Why the values came from a stand-in source, e.g. `llm-unavailable` when they are trace-fallback's. */
  get degraded(): Degradation | undefined {
    return this.broker.degraded;
  }

  /** Time spent waiting for providers, which the snippet's time budget does not count. */
  get providerMs(): number {
    return this.broker.ms;
  }

  /** Bridge entry point: never throws, since an exception would surface inside the snippet. */
  async handle(json: string): Promise<string> {
    try {
      const req = JSON.parse(json) as IsolateRequest;
      const proposal = req.op === 'reject' ? await this.reject(req.id, req.error ?? 'rejected') : await this.value(req);
      if (proposal?.probe) return '{"probe":true}';
      return JSON.stringify(proposal ? { source: proposal.source, refs: proposal.refs } : {});
    } catch (error) {
      this.hostBug(error);
      return '{}';
    }
  }

  /** Keeps the first host bug for the result, and logs every one with its stack. */
  private hostBug(error: unknown): void {
    this.consulted++;
    const err = error instanceof Error ? error : new Error(String(error));
    this.hostError ??= err;
    this.ctx.log.error({ err }, 'snipexec host bug while answering a value request');
  }

  /** Runs a host-side step between runs; a host bug in it is kept, never thrown. */
  private async guarded<T>(step: () => Promise<T>, otherwise: T): Promise<T> {
    try {
      return await step();
    } catch (error) {
      this.hostBug(error);
      return otherwise;
    }
  }

  /**
   * Asks the provider, and the fallback when it is exhausted (or failed); counts attempts and
   * keeps the failures it reports. A host bug is thrown.
   */
  private async propose(def: Definition, request: ValueRequest): Promise<Proposal | undefined> {
    this.consulted++;
    const proposal: Proposal | Exhausted | undefined = await this.broker.propose(request);
    if (isExhausted(proposal)) {
      def.attempts += proposal.attempts;
      def.history.push(...proposal.failures);
      return this.fallback(def, { ...request, attempt: def.attempts + 1, history: def.history });
    }
    if (!proposal) return undefined;
    if (!proposal.probe) {
      def.attempts += proposal.attempts ?? 1;
      if (proposal.failures) def.history.push(...proposal.failures);
    }
    def.provider = proposal.provider ?? this.broker.provider.name;
    return proposal;
  }

  /** The fallback's proposal (`--mode llm`: the trace generator's value), or its category as the predefined dummy. */
  private async fallback(def: Definition, request: ValueRequest): Promise<Proposal> {
    this.consulted++;
    const choice = await this.broker.fallback(request);
    def.fallbacks++;
    def.provider = `${choice.by}-fallback`;
    return choice.proposal ?? dummyFor(choice.category, def.id, def.name, request.usage.arrayPattern?.length);
  }

  private site(sid: number | undefined): HookSite | undefined {
    return sid === undefined ? undefined : this.ctx.map.sites[sid];
  }

  private request(def: Definition, message: string, extra: Usage = {}, mayProbe = this.mayProbe): ValueRequest {
    const usage = mergeUsage(mergeUsage({}, this.ctx.usage[def.usageKey] ?? {}), extra);
    // Set aside, a declared type leaves only the parameter name a driven argument is known by.
    if (def.undeclared && usage.declared) usage.declared = usage.declared.name === undefined ? undefined : { name: usage.declared.name };
    return {
      element: def.id, kind: def.kind, name: def.name, usage, site: undefined, snippet: this.ctx.snippet, line: def.line,
      message, attempt: def.attempts + 1, history: def.history, rejected: def.rejected,
      trace: this.traces.get(def.id), traces: this.traces, mayProbe: mayProbe && def.kind !== 'part',
      // Only the LLM prompt reads these; every other request would pay for building them.
      definitions: () => [...this.defs.values()].filter((d) => !d.proposal.probe).map((d) => ({ element: d.id, source: d.proposal.source })),
      fallbacks: def.fallbacks,
      ...(this.ctx.check ? { check: (p: Proposal) => this.ctx.check!(this.withCandidate(def, p), def.id) } : {}),
    };
  }

  /**
   * The definitions with `candidate` standing for `def`, to check it: parts it refers to that are
   * not defined yet are universal dummies (they are learnt once it is adopted), and recording
   * proxies are left out (they exist only inside a run).
   */
  private withCandidate(def: Definition, candidate: Proposal): Map<string, Definition> {
    const defs = new Map([...this.defs].filter(([, d]) => !d.proposal.probe));
    defs.set(def.id, { ...def, proposal: candidate });
    for (const ref of candidate.refs) {
      if (defs.has(ref)) continue;
      defs.set(ref, { ...def, id: ref, kind: 'part', parent: def.id, name: ref, usageKey: ref, proposal: dummyFor('Dummy', ref, ref), history: [], rejected: [] });
    }
    return defs;
  }

  private adopt(def: Definition, proposal: Proposal): Proposal {
    def.proposal = proposal;
    if (proposal.probe) {
      this.probed.add(def.id);
      this.probesInjected++;
    }
    return proposal;
  }

  /**
   * After a run: learns its traces, then replaces every recording proxy, and every traced
   * definition whose trace grew, with a concrete value synthesised from what was seen.
   */
  async afterRun(traces: TraceTable | undefined): Promise<void> {
    return this.guarded(() => this.learn(traces), undefined);
  }

  private async learn(traces: TraceTable | undefined): Promise<void> {
    const grew = this.traces.merge(traces);
    const learning = this.probed.size > 0;
    if (learning) this.learningRuns++;
    const { provider } = this.broker;
    const redo = [...this.defs.values()].filter((d) => this.probed.has(d.id) || (learning && grew.has(d.id) && this.traceMade(d)));
    this.probed.clear();
    for (const def of redo) {
      const wasProbe = def.proposal.probe === true;
      const attempts = def.attempts;
      const request = this.request(def, def.message, {}, false);
      const again = !wasProbe && provider.resynthesizes !== true ? await this.broker.synthesize(request, traceProvider) : undefined;
      let proposal = again ?? await this.propose(def, request);
      // Re-synthesis from a grown trace refines the same attempt; it spends none.
      if (!wasProbe) def.attempts = attempts;
      if (!proposal || proposal.probe) proposal = await this.fallback(def, request);
      if (proposal.source !== def.proposal.source || wasProbe) this.changed = true;
      if (wasProbe) def.attempts = Math.max(def.attempts, 1);
      def.proposal = proposal;
    }
    for (const def of redo) await this.resolveParts(def, 0);
    if (learning) this.changed = true;
    this.prune();
  }

  /**
   * Values the trace generator synthesised, whichever provider the mode has (an LLM's parts and
   * trace-fallback values learn as trace's do): synthesised again from a grown trace.
   */
  private traceMade(d: Definition): boolean {
    const { provider } = this.broker;
    return (provider.resynthesizes === true && d.provider === provider.name) || (provider.resynthesizes !== true && TRACE_MADE.has(d.provider));
  }

  /**
   * Sets aside the declared type of every learnt value that honours one (a TypeScript annotation, a
   * JSDoc tag: annotation > usage > name): each is synthesised again from its trace, usage and name
   * alone, and the parts it refers to with it. The session runs once so and keeps that run only
   * when it covers more (runScenario): a declared `number` that makes a recursion endless gives
   * way to the value usage gives. Returns whether any value changed.
   */
  async setAsideDeclared(): Promise<boolean> {
    return this.guarded(async () => {
      const honouring = [...this.defs.values()].filter((d) => !d.undeclared && !d.proposal.probe && !this.isHeld(d.id) && this.traceMade(d)
        && d.proposal.category === this.ctx.usage[d.usageKey]?.declared?.category);
      let any = false;
      for (const def of honouring) {
        def.undeclared = true;
        const usageOnly = await this.broker.synthesize(this.request(def, def.message, {}, false), traceProvider);
        if (!usageOnly || usageOnly.source === def.proposal.source) {
          delete def.undeclared;
          continue;
        }
        def.proposal = usageOnly;
        await this.resolveParts(def, 0);
        any = true;
      }
      if (any) this.prune();
      return any;
    }, false);
  }

  /**
   * A run that stopped on an error an injected value caused: the value failed, so it is retried
   * with the error fed back (the trace provider records again first). Returns whether it was.
   */
  async blame(errors: readonly { message: string; attribution: string; culprit?: string }[]): Promise<boolean> {
    return this.guarded(() => this.blameOne(errors), false);
  }

  private async blameOne(errors: readonly { message: string; attribution: string; culprit?: string }[]): Promise<boolean> {
    for (const e of errors) {
      if (e.attribution !== 'injected' || e.culprit === undefined) continue;
      const def = nearestDefined(e.culprit, (id) => this.defs.get(id));
      if (!def || this.isHeld(def.id) || def.proposal.probe || def.proposal.category === 'Dummy' || !this.broker.owns(def.provider)) continue;
      // A type the platform fixes stands (items.length is a number): the error is the snippet's, nothing is refined.
      if (this.fixedByPlatform(e.culprit)) continue;
      const before = def.proposal.source;
      await this.retry(def, e.message, {});
      await this.resolveParts(def, 0);
      this.prune();
      return def.proposal.source !== before || (def.proposal as Proposal).probe === true;
    }
    return false;
  }

  /**
   * Whether an error with this culprit follows from a type the platform fixes (a member read or
   * method result holding the platform's value, src/values/apiTypes/platformTypes.ts): then it is
   * the snippet's error, and the value is not refined.
   */
  fixedByPlatform(culprit: string): boolean {
    return fixedOnPath(culprit, (id) => this.defs.get(id)?.proposal.category);
  }

  /**
   * A run that did not finish (timeout, memory limit): each generated definition (an LLM's) that
   * is new since the last run that did, or every one when none did, is retried with that fault.
   * Returns whether any was.
   */
  async blameStall(status: 'timeout' | 'memory-limit', finished: ReadonlyMap<string, Definition> | undefined): Promise<boolean> {
    return this.guarded(async () => {
      const fault = status === 'timeout'
        ? 'the snippet did not finish within its time limit with this definition in place; it must not loop forever when it is used'
        : 'the snippet exhausted its memory limit with this definition in place';
      const suspects = [...this.defs.values()].filter((d) => d.proposal.generated === true && !d.proposal.probe && this.broker.owns(d.provider) && finished?.get(d.id)?.proposal.source !== d.proposal.source);
      let any = false;
      for (const def of suspects) {
        const before = def.proposal.source;
        await this.retry(def, fault, {});
        await this.resolveParts(def, 0);
        any ||= def.proposal.source !== before;
      }
      if (any) this.prune();
      return any;
    }, false);
  }

  /** Definitions that threw while the prelude ran: each is retried with its error. Returns whether any was. */
  async definitionsFailed(failures: readonly { id: string; message: string }[]): Promise<boolean> {
    return this.guarded(() => this.retryFailedDefinitions(failures), false);
  }

  private async retryFailedDefinitions(failures: readonly { id: string; message: string }[]): Promise<boolean> {
    let any = false;
    for (const f of failures) {
      const def = this.defs.get(f.id);
      if (!def || def.proposal.probe) continue;
      const before = def.proposal.source;
      await this.retry(def, `${f.message} (thrown while its definition ran)`, {});
      await this.resolveParts(def, 0);
      any ||= def.proposal.source !== before;
    }
    if (any) this.prune();
    return any;
  }

  /**
   * What a run's answers to the isolate depend on when no provider is asked: every definition as the
   * prelude renders it and the bridge hands it out, and the held elements. Undefined while a
   * recording proxy stands for one (its run is a learning run, never replayed).
   */
  answersKey(): string | undefined {
    const defs: unknown[] = [];
    for (const d of this.defs.values()) {
      if (d.proposal.probe) return undefined;
      defs.push([d.id, d.kind, d.parent ?? null, d.name, d.usageKey, d.proposal.source, d.proposal.refs]);
    }
    return JSON.stringify([defs, [...(this.ctx.held ?? [])]]);
  }

  /** A way back to the book as it stands, after requests were answered (a replay whose answers differed). */
  checkpoint(): () => void {
    const defs = this.snapshot();
    const probed = [...this.probed];
    const { changed, consulted, probesInjected, hostError } = this;
    const broker = this.broker.checkpoint();
    return () => {
      this.restore(defs);
      this.probed.clear();
      for (const id of probed) this.probed.add(id);
      Object.assign(this, { changed, consulted, probesInjected, hostError });
      broker();
    };
  }

  /** The definitions as they stand, to come back to when later attempts did worse. */
  snapshot(): Map<string, Definition> {
    return new Map([...this.defs].map(([id, d]) => [id, { ...d, history: [...d.history], rejected: [...d.rejected] }]));
  }

  restore(snapshot: Map<string, Definition>): void {
    this.defs.clear();
    for (const [id, d] of snapshot) this.defs.set(id, { ...d, history: [...d.history], rejected: [...d.rejected] });
  }

  /** Defines the parts a host-side proposal refers to, since the prelude renders them directly. */
  private async resolveParts(def: Definition, depth: number): Promise<void> {
    if (depth > 12) return;
    for (const ref of def.proposal.refs) {
      if (this.defs.has(ref)) continue;
      await this.value({ op: 'value', id: ref, kind: 'part', parent: def.id, message: `part of ${def.id}` });
      const part = this.defs.get(ref);
      if (part) await this.resolveParts(part, depth + 1);
    }
  }

  /** Drops parts no live definition refers to any more, after their owner was re-synthesised. */
  private prune(): void {
    const live = liveIds(this.defs);
    for (const id of [...this.defs.keys()]) if (!live.has(id)) this.defs.delete(id);
  }

  /** An element at or below a held one (BookContext.held). */
  private isHeld(id: string): boolean {
    if (!this.ctx.held) return false;
    for (const root of this.ctx.held) if (isWithin(id, root)) return true;
    return false;
  }

  private async value(req: IsolateRequest): Promise<Proposal | undefined> {
    const existing = this.defs.get(req.id);
    if (this.isHeld(req.id)) return req.refine ? undefined : existing?.proposal;
    if (existing && !req.refine) return existing.proposal;
    if (existing && req.refine) return this.retry(existing, req.message ?? 'failed again', OBSERVED[req.kind ?? 'member'] ?? {});
    if (this.defs.size >= this.ctx.maxInjections) return undefined;
    const site = this.site(req.sid);
    const owner = req.parent === undefined ? undefined : this.defs.get(req.parent);
    const def: Definition = {
      id: req.id, kind: req.kind ?? 'global', parent: req.parent, name: req.key ?? req.id, usageKey: usageKeyOf(req, site, owner?.usageKey),
      line: site?.line ?? 0, message: req.message ?? '', proposal: { source: 'undefined', refs: [], category: 'undefined' }, provider: this.broker.provider.name,
      attempts: 0, history: [], rejected: [], fallbacks: 0, ...(owner?.undeclared ? { undeclared: true as const } : {}),
    };
    const request = { ...this.request(def, req.message ?? ''), site };
    // A call whose result the snippet never uses needs no return value.
    if (def.kind === 'return' && Object.keys(request.usage).length === 0) return undefined;
    const proposal = await this.propose(def, request);
    if (!proposal) return undefined;
    this.adopt(def, proposal);
    this.defs.set(def.id, def);
    this.changed = true;
    return proposal;
  }

  private async reject(id: string, error: string): Promise<Proposal | undefined> {
    const def = this.defs.get(id);
    if (!def || this.isHeld(id)) return undefined;
    return this.retry(def, error, {});
  }

  /** Records the failure of the current definition and asks again, or falls back after maxAttempts. */
  private async retry(def: Definition, error: string, observed: Usage): Promise<Proposal | undefined> {
    this.consulted++;
    if (def.proposal.probe) return undefined; // a recording proxy takes any operation; nothing to refine yet
    if (fixedOnPath(def.id, (id) => this.defs.get(id)?.proposal.category)) return undefined; // the platform's type is not refined
    def.history.push({ source: def.proposal.source, error, ...(def.proposal.code !== undefined ? { code: def.proposal.code } : {}) });
    if (def.proposal.category === 'Dummy') return undefined; // the last resort failed too: leave the error standing
    if (!def.proposal.generated && !def.rejected.includes(def.proposal.category)) def.rejected.push(def.proposal.category);
    this.changed = true;
    const request = this.request(def, error, observed);
    // Once the fallback classifier picked its dummy, the provider is not asked again.
    const fromProvider = def.attempts < this.ctx.maxAttempts && def.fallbacks === 0;
    let proposal = fromProvider ? await this.propose(def, request) : undefined;
    proposal ??= await this.fallback(def, this.request(def, error, observed));
    return this.adopt(def, proposal);
  }
}
