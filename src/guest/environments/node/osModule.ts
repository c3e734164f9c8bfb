/** `os`: a fixed, plausible Linux machine; nothing is read from the host. */
export function createOs(): Record<string, unknown> {
  const cpu = { model: 'Virtual CPU @ 2.40GHz', speed: 2400, times: { user: 100000, nice: 0, sys: 50000, idle: 1000000, irq: 0 } };
  return {
    EOL: '\n',
    devNull: '/dev/null',
    platform: () => 'linux',
    type: () => 'Linux',
    release: () => '6.8.0',
    version: () => '#1 SMP',
    machine: () => 'x86_64',
    arch: () => 'x64',
    endianness: () => 'LE',
    hostname: () => 'snipexec',
    homedir: () => '/home/node',
    tmpdir: () => '/tmp',
    uptime: () => 3600,
    loadavg: () => [0.1, 0.05, 0.01],
    totalmem: () => 8_589_934_592,
    freemem: () => 4_294_967_296,
    availableParallelism: () => 4,
    cpus: () => [0, 1, 2, 3].map(() => ({ ...cpu, times: { ...cpu.times } })),
    userInfo: () => ({ uid: 1000, gid: 1000, username: 'node', homedir: '/home/node', shell: '/bin/sh' }),
    networkInterfaces: () => ({
      lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' }],
      eth0: [{ address: '10.0.0.2', netmask: '255.255.255.0', family: 'IPv4', mac: '02:42:0a:00:00:02', internal: false, cidr: '10.0.0.2/24' }],
    }),
    getPriority: () => 0,
    setPriority: () => undefined,
    constants: { signals: { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 }, errno: {}, priority: { PRIORITY_NORMAL: 0 } },
  };
}
