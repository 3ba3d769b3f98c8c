// cw_nccl_launch N PROGRAM ARGS...: starts N processes of PROGRAM as the ranks of one job, as
// torchrun does: each gets RANK, LOCAL_RANK and WORLD_SIZE, and the communicator's unique id
// (ncclGetUniqueId, once, here) in CAUSEWAY_NCCL_ID. Waits for all of them; exits 0 when every
// rank did, else with the first failing rank's status. SIGTERM (a recording that stops) is left
// to the ranks, which get their own: the launcher outlives them and then removes the rendezvous
// segment that ranks killed mid-job leave behind.
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "nccl.h"
#include "rank_environment.hpp"

int main(int argc, char** argv) {
    const int ranks = argc >= 3 ? std::atoi(argv[1]) : 0;
    if (ranks < 1 || ranks > 64) {
        std::fprintf(stderr, "usage: cw_nccl_launch N PROGRAM [ARGS...]  (1 <= N <= 64)\n");
        return 2;
    }
    ncclUniqueId id;
    if (ncclGetUniqueId(&id) != ncclSuccess) {
        std::fprintf(stderr, "cw_nccl_launch: ncclGetUniqueId failed\n");
        return 1;
    }
    const std::string hex = fakenccl::id_to_hex(id);
    std::vector<pid_t> children;
    for (int rank = 0; rank < ranks; ++rank) {
        const pid_t pid = fork();
        if (pid < 0) {
            std::perror("cw_nccl_launch: fork");
            return 1;
        }
        if (pid == 0) {
            setenv("RANK", std::to_string(rank).c_str(), 1);
            setenv("LOCAL_RANK", std::to_string(rank).c_str(), 1);
            setenv("WORLD_SIZE", std::to_string(ranks).c_str(), 1);
            setenv(fakenccl::kIdVariable, hex.c_str(), 1);
            execvp(argv[2], argv + 2);
            std::fprintf(stderr, "cw_nccl_launch: cannot run %s\n", argv[2]);
            _exit(127);
        }
        children.push_back(pid);
    }
    signal(SIGTERM, SIG_IGN);
    int result = 0;
    for (pid_t child : children) {
        int status = 0;
        waitpid(child, &status, 0);
        const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (result == 0 && code != 0) {
            result = code;
        }
    }
    shm_unlink(id.internal);  // the fake's segment name (rendezvous.hpp): gone already if all left
    return result;
}
