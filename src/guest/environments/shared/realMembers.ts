/**
 * The member names of the real Node objects the environments model, from Node v24.21.0: for a module,
 * `Object.keys(require(name))`; for `process`, its own names and its prototype's; for `Hash`, the
 * names of a `crypto.createHash('sha1')` object and its prototypes. `_`-prefixed names are left out.
 * A member listed here that a model lacks is learnt from usage (learnGaps.ts); one that is not
 * listed (removed from Node: `crypto.createCipher`, `util.pump`) stays undefined, as it is now.
 * Regenerate with Node 24: for each name, `Object.keys(require(name)).filter((k) => !k.startsWith('_')).sort().join(' ')`.
 */
export const REAL_MEMBERS: Readonly<Record<string, string>> = {
  crypto: 'Certificate Cipheriv Decipheriv DiffieHellman DiffieHellmanGroup ECDH Hash Hmac KeyObject Sign Verify X509Certificate argon2 argon2Sync checkPrime checkPrimeSync constants createCipheriv createDecipheriv createDiffieHellman createDiffieHellmanGroup createECDH createHash createHmac createPrivateKey createPublicKey createSecretKey createSign createVerify decapsulate diffieHellman encapsulate generateKey generateKeyPair generateKeyPairSync generateKeySync generatePrime generatePrimeSync getCipherInfo getCiphers getCurves getDiffieHellman getFips getHashes getRandomValues hash hkdf hkdfSync pbkdf2 pbkdf2Sync privateDecrypt privateEncrypt publicDecrypt publicEncrypt randomBytes randomFill randomFillSync randomInt randomUUID randomUUIDv7 scrypt scryptSync secureHeapUsed setEngine setFips sign subtle timingSafeEqual verify webcrypto',
  http: 'Agent ClientRequest CloseEvent IncomingMessage METHODS MessageEvent OutgoingMessage STATUS_CODES Server ServerResponse WebSocket createServer get globalAgent maxHeaderSize request setGlobalProxyFromEnv setMaxIdleHTTPParsers validateHeaderName validateHeaderValue',
  https: 'Agent Server createServer get globalAgent request',
  child_process: 'ChildProcess exec execFile execFileSync execSync fork spawn spawnSync',
  os: 'EOL arch availableParallelism constants cpus devNull endianness freemem getPriority homedir hostname loadavg machine networkInterfaces platform release setPriority tmpdir totalmem type uptime userInfo version',
  net: 'BlockList BoundSocket Server Socket SocketAddress Stream connect createConnection createServer getDefaultAutoSelectFamily getDefaultAutoSelectFamilyAttemptTimeout isIP isIPv4 isIPv6 setDefaultAutoSelectFamily setDefaultAutoSelectFamilyAttemptTimeout',
  process: 'abort allowedNodeEnvironmentFlags arch argv argv0 availableMemory binding chdir config constrainedMemory cpuUsage cwd debugPort dlopen domain emitWarning env execArgv execPath execve exit exitCode features finalization getActiveResourcesInfo getBuiltinModule getegid geteuid getgid getgroups getuid hasUncaughtExceptionCaptureCallback hrtime initgroups kill loadEnvFile memoryUsage moduleLoadList nextTick openStdin pid platform ppid reallyExit ref release report resourceUsage setSourceMapsEnabled setUncaughtExceptionCaptureCallback setegid seteuid setgid setgroups setuid sourceMapsEnabled stderr stdin stdout threadCpuUsage title umask unref uptime version versions',
  Hash: 'addListener closed compose copy cork destroy destroyed digest drop emit end errored eventNames every filter find flatMap forEach getMaxListeners isPaused iterator listenerCount listeners map off on once pause pipe prependListener prependOnceListener push rawListeners read readable readableAborted readableBuffer readableDidRead readableEncoding readableEnded readableFlowing readableHighWaterMark readableLength readableObjectMode reduce removeAllListeners removeListener resume setDefaultEncoding setEncoding setMaxListeners some take toArray uncork unpipe unshift update wrap writable writableBuffer writableCorked writableEnded writableFinished writableHighWaterMark writableLength writableNeedDrain writableObjectMode write',
};

/** The real member names of `name`, as a set. */
export function realMembers(name: string): ReadonlySet<string> {
  return new Set((REAL_MEMBERS[name] ?? '').split(' ').filter((k) => k !== ''));
}
