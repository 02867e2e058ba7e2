// Loaded into a server process under test (`--import`, see `clockOffset`): its wall clock runs `seconds` off the
// machine's (negative: behind), as on a host whose clock drifted. Date.now() and new Date() follow; timers,
// performance.now() (monotonic) and the database's own clock do not.
const offsetMs = Number(new URL(import.meta.url).searchParams.get('seconds') ?? 0) * 1000;
const MachineDate = Date;

class SkewedDate extends MachineDate {
  constructor(...args) {
    if (args.length === 0) super(MachineDate.now() + offsetMs);
    else super(...args);
  }

  static now() {
    return MachineDate.now() + offsetMs;
  }
}

globalThis.Date = SkewedDate;
