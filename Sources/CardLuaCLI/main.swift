#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The exec wrapper of a confined process (ConfinedProcess.swift): before anything else.
if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == ConfinedProcess.wrapperArgument {
    ConfinedProcess.execWrapper(Array(CommandLine.arguments.dropFirst(2)))
}

// A closed pipe is reported by write(2), not by a signal that kills the process.
signal(SIGPIPE, SIG_IGN)
exit(CardLuaCommand.main(Array(CommandLine.arguments.dropFirst())))
