import type { HookSite } from '../instrument/coverageModel.ts';
import type { Usage } from '../instrument/usage.ts';
import { dummyFor } from '../values/dummyTable.ts';
import type { Degradation } from '../core/runResult.ts';
import { isUsed, type TraceTable } from '../protocol/trace.ts';
import { isExhausted, type Exhausted, type Proposal, type ValueRequest } from '../values/types.ts';
import { isWithin, liveIds, OBSERVED, usageKeyOf, type IsolateRequest } from './elementPaths.ts';
import type { Definition } from './definition.ts';
import type { BookContext } from './bookContext.ts';
import { answersKeyOf, checkpointOf, restoreDefinitions, snapshotDefinitions } from './bookState.ts';
import { blameInjected, blameStalled, fixedByPlatform, retryFailedDefinitions, setAsideDeclared, type BlameSteps } from './blameDefinitions.ts';
import { ProviderBroker, type ProviderError } from './providerBroker.ts';
import { TraceStore } from './traceStore.ts';
import { requestFor, type RequestSources } from './valueRequest.ts';
import { traceProvider } from '../values/trace/traceProvider.ts';
import { relearn, traceMade, type LearnSteps } from './learnFromTraces.ts';
import { LoopMender, type LoopSteps } from './endStalledLoops.ts';

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
  /** Loops a learnt function keeps going: which a run watches, and their mending (endStalledLoops.ts). */
  readonly loops: LoopMender;
  private readonly ctx: BookContext;
  private readonly broker: ProviderBroker;
  private readonly sources: RequestSources;
  /** What learning and blame (learnFromTraces.ts, blameDefinitions.ts) need of the book. */
  private readonly steps: BlameSteps & LearnSteps & LoopSteps = {
    defs: this.defs,
    traces: this.traces,
    isHeld: (id) => this.isHeld(id),
    owns: (provider) => this.broker.owns(provider),
    traceMade: (def) => traceMade(this.broker.provider, def),
    declaredCategory: (def) => this.ctx.usage[def.usageKey]?.declared?.category,
    resynthesize: (def) => this.broker.synthesize(this.request(def, def.message, {}, false), traceProvider),
    retry: (def, error) => this.retry(def, error, {}),
    resolveParts: (def) => this.resolveParts(def, 0),
    prune: () => this.prune(),
    request: (def) => this.request(def, def.message, {}, false),
    synthesizeFrom: (request) => this.broker.synthesize(request, traceProvider),
    propose: (def, request) => this.propose(def, request),
    fallback: (def, request) => this.fallback(def, request),
  };

  constructor(ctx: BookContext) {
    this.ctx = ctx;
    this.broker = new ProviderBroker(ctx.values);
    this.sources = { snippet: ctx.snippet, usage: ctx.usage, defs: this.defs, traces: this.traces, ...(ctx.check ? { check: ctx.check } : {}) };
    this.loops = new LoopMender(this.steps, (step, otherwise) => this.guarded(step, otherwise));
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
    return requestFor(this.sources, def, message, extra, mayProbe);
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
    const redo = [...this.defs.values()].filter((d) => this.probed.has(d.id) || (learning && grew.has(d.id) && traceMade(this.broker.provider, d)));
    this.probed.clear();
    for (const def of redo) if (await relearn(this.steps, provider, def)) this.changed = true;
    // A function's result no run saw used (synthesizeValue.ts returns it all the same) comes last: under maxInjections, what a run used goes first.
    const later: Definition[] = [];
    for (const def of redo) await this.resolveParts(def, 0, later);
    for (const def of later) await this.resolveParts(def, 0);
    if (learning) this.changed = true;
    this.prune();
  }

  /** The trial of learnt values with their declared types set aside (blameDefinitions.ts). Returns whether any value changed. */
  async setAsideDeclared(): Promise<boolean> {
    return this.guarded(() => setAsideDeclared(this.steps), false);
  }

  /**
   * A run that stopped on an error an injected value caused: the value failed, so it is retried
   * with the error fed back (the trace provider records again first). Returns whether it was.
   */
  async blame(errors: readonly { message: string; attribution: string; culprit?: string }[]): Promise<boolean> {
    return this.guarded(() => blameInjected(this.steps, errors), false);
  }

  /** Whether an error with this culprit follows from a type the platform fixes (blameDefinitions.ts). */
  fixedByPlatform(culprit: string): boolean {
    return fixedByPlatform(this.defs, culprit);
  }

  /** A run that did not finish: the generated definitions new since the last that did are retried (blameDefinitions.ts). */
  async blameStall(status: 'timeout' | 'memory-limit', finished: ReadonlyMap<string, Definition> | undefined): Promise<boolean> {
    return this.guarded(() => blameStalled(this.steps, status, finished), false);
  }

  /** Definitions that threw while the prelude ran: each is retried with its error. Returns whether any was. */
  async definitionsFailed(failures: readonly { id: string; message: string }[]): Promise<boolean> {
    return this.guarded(() => retryFailedDefinitions(this.steps, failures), false);
  }

  /** What a run's answers depend on when no provider is asked (answersKeyOf); undefined in a learning run. */
  answersKey(): string | undefined {
    return answersKeyOf(this.defs, this.ctx.held);
  }

  /** A way back to the book as it stands, after requests were answered (a replay whose answers differed). */
  checkpoint(): () => void {
    return checkpointOf(this, this.broker.checkpoint());
  }

  /** The definitions as they stand, to come back to when later attempts did worse. */
  snapshot(): Map<string, Definition> {
    return snapshotDefinitions(this.defs);
  }

  restore(snapshot: Map<string, Definition>): void {
    restoreDefinitions(this.defs, snapshot);
  }

  /** Defines the parts a host-side proposal refers to, since the prelude renders them directly. */
  private async resolveParts(def: Definition, depth: number, later?: Definition[]): Promise<void> {
    if (depth > 12) return;
    for (const ref of def.proposal.refs) {
      if (this.defs.has(ref)) continue;
      if (later && ref === `${def.id}()` && !isUsed(this.traces.get(ref))) {
        later.push(def);
        continue;
      }
      await this.value({ op: 'value', id: ref, kind: 'part', parent: def.id, message: `part of ${def.id}` });
      const part = this.defs.get(ref);
      if (part) await this.resolveParts(part, depth + 1, later);
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
    if (fixedByPlatform(this.defs, def.id)) return undefined; // the platform's type is not refined
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
