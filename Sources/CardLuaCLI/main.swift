#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A closed pipe is reported by write(2), not by a signal that kills the process.
signal(SIGPIPE, SIG_IGN)
exit(CardLuaCommand.main(Array(CommandLine.arguments.dropFirst())))
