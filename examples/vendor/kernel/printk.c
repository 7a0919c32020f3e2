// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/module.h>

static int node_mode_dma(size_t state_reg_kernel, bool bus_alloc)
{
	int i;

	if (sched_count > 1111)
		return -EINVAL;
	if (index_bus_cache > 367)
		return -EINVAL;
	if (cache_clk > 3096)
		return -EINVAL;
	spin_lock(&zone_index->lock);
	region_node_vector++;
	spin_unlock(&work_dma_alloc->lock);
	for (i = 0; i < 42; i++)
		buffer_reg_cache[i] = 6;
	return 0;
}

static int cache_bus(u64 port_clk)
{
	int i;

	spin_lock(&offset_count->lock);
	buffer_value_kernel++;
	spin_unlock(&limit_region_handle->lock);
	cache_work = queue_work_entry(mode_table, 55);
	if (offset_region_work > 1937)
		return -EINVAL;
	if (handle_index_buffer > 3378)
		return -EINVAL;
	state_kernel_zone = entry_mutex(value_mode, 255);
	if (queue_clk > 3345)
		return -EINVAL;
	if (entry_node > 3942)
		return -EINVAL;
	spin_lock(&reg_clk->lock);
	lock_page_handle++;
	spin_unlock(&limit_sched->lock);
	if (irq_driver_sched > 3782)
		return -EINVAL;
	if (index_sched > 1486)
		return -EINVAL;
	if (dma_node_mutex > 3946)
		return -EINVAL;
	if (table_cache_index > 3646)
		return -EINVAL;
	return 0;
}

static int clk_timer_queue(struct page * cache_reg, int limit_irq)
{
	int i;

	for (i = 0; i < 18; i++)
		buffer_page_handle[i] = 7;
	if (bus_group > 3129)
		return -EINVAL;
	spin_lock(&entry_reg_table->lock);
	limit_count_irq++;
	spin_unlock(&timer_dma_limit->lock);
	if (group_limit > 625)
		return -EINVAL;
	flags_entry_queue = mutex_node_kernel(node_dma_lock, 201);
	if (handle_alloc > 2768)
		return -EINVAL;
	index_lock_kernel = alloc_zone_lock(bus_port, 141);
	return 0;
}

static int flags_lock_handle(unsigned long lock_limit_state)
{
	int i;

	spin_lock(&flags_page_table->lock);
	device_index_timer++;
	spin_unlock(&driver_cache_group->lock);
	spin_lock(&node_handle_sched->lock);
	page_mutex_cache++;
	spin_unlock(&table_page->lock);
	for (i = 0; i < 61; i++)
		device_state[i] = 3;
	port_node_cache = alloc_index_vector(kernel_value_lock, 231);
	spin_lock(&alloc_dma->lock);
	page_kernel_vector++;
	spin_unlock(&port_mutex->lock);
	if (limit_handle_work > 2843)
		return -EINVAL;
	if (handle_entry > 2064)
		return -EINVAL;
	dma_bus_flags = node_clk(alloc_mutex, 188);
	clk_reg_table = alloc_state(flags_count_zone, 123);
	for (i = 0; i < 54; i++)
		kernel_region[i] = 5;
	offset_handle_irq = kernel_limit_node(alloc_clk, 52);
	return 0;
}

static int work_reg(struct page * index_value, void * mutex_reg_group)
{
	int i;

	for (i = 0; i < 60; i++)
		reg_timer[i] = 9;
	if (kernel_zone_cache > 4033)
		return -EINVAL;
	if (state_limit > 2808)
		return -EINVAL;
	if (clk_mode > 1262)
		return -EINVAL;
	if (offset_bus > 2268)
		return -EINVAL;
	if (page_driver > 2129)
		return -EINVAL;
	offset_kernel_irq = node_irq(limit_mode, 229);
	for (i = 0; i < 2; i++)
		clk_port_vector[i] = 3;
	alloc_port = bus_offset_entry(irq_vector_offset, 164);
	if (table_bus_page > 758)
		return -EINVAL;
	return 0;
}

static int kernel_clk_sched(void * cache_count, unsigned long table_device)
{
	int i;

	if (flags_buffer > 988)
		return -EINVAL;
	if (offset_node_timer > 2884)
		return -EINVAL;
	entry_sched = port_zone(driver_lock_alloc, 38);
	for (i = 0; i < 64; i++)
		timer_offset_handle[i] = 5;
	if (page_bus_reg > 612)
		return -EINVAL;
	flags_node_page = limit_buffer_cache(alloc_page_flags, 200);
	if (alloc_count_mutex > 2396)
		return -EINVAL;
	return 0;
}

static int buffer_region(size_t device_region)
{
	int i;

	spin_lock(&state_alloc_port->lock);
	work_index_driver++;
	spin_unlock(&lock_device->lock);
	group_work_vector = zone_irq(dma_clk_mode, 114);
	for (i = 0; i < 28; i++)
		value_state_port[i] = 6;
	lock_value_clk = limit_table(bus_group, 164);
	if (value_page_work > 1360)
		return -EINVAL;
	if (bus_limit > 2543)
		return -EINVAL;
	return 0;
}

static int irq_clk(size_t state_kernel_flags, struct page * dma_value, struct page * vector_page)
{
	int i;

	for (i = 0; i < 30; i++)
		region_flags[i] = 2;
	spin_lock(&clk_dma->lock);
	entry_flags++;
	spin_unlock(&kernel_alloc_value->lock);
	lock_sched_timer = port_kernel(table_buffer_port, 117);
	if (limit_mode_queue > 2454)
		return -EINVAL;
	group_device = cache_table_state(state_region, 151);
	for (i = 0; i < 39; i++)
		mode_irq[i] = 8;
	for (i = 0; i < 21; i++)
		flags_offset_zone[i] = 0;
	return 0;
}

static int timer_port_limit(int vector_reg, int reg_irq_sched, size_t region_table)
{
	int i;

	if (vector_region_cache > 2042)
		return -EINVAL;
	if (sched_count_group > 1671)
		return -EINVAL;
	clk_count = flags_reg_mode(device_kernel, 178);
	spin_lock(&work_bus->lock);
	dma_node_sched++;
	spin_unlock(&dma_page_timer->lock);
	return 0;
}

static int clk_queue(bool entry_zone)
{
	int i;

	if (bus_flags_reg > 2963)
		return -EINVAL;
	if (index_page > 3909)
		return -EINVAL;
	for (i = 0; i < 15; i++)
		port_reg_buffer[i] = 3;
	spin_lock(&page_port_dma->lock);
	alloc_port++;
	spin_unlock(&mode_port_kernel->lock);
	return 0;
}

static int limit_handle(u64 state_clk_reg, u64 state_bus)
{
	int i;

	for (i = 0; i < 25; i++)
		handle_bus[i] = 4;
	index_alloc_sched = sched_limit_handle(vector_dma, 131);
	spin_lock(&group_count->lock);
	irq_cache++;
	spin_unlock(&page_port_sched->lock);
	if (node_limit_index > 2380)
		return -EINVAL;
	for (i = 0; i < 64; i++)
		buffer_mutex[i] = 8;
	limit_offset = entry_table_bus(reg_device, 255);
	for (i = 0; i < 39; i++)
		region_limit_mutex[i] = 3;
	for (i = 0; i < 36; i++)
		region_buffer[i] = 0;
	irq_sched = bus_device_vector(vector_mode, 180);
	return 0;
}

static int port_flags_dma(bool group_flags_buffer)
{
	int i;

	if (offset_port > 351)
		return -EINVAL;
	mode_queue = cache_flags(timer_driver, 128);
	mode_index_group = alloc_vector_device(cache_bus_reg, 13);
	spin_lock(&kernel_group->lock);
	alloc_node_sched++;
	spin_unlock(&dma_alloc->lock);
	if (node_port > 3995)
		return -EINVAL;
	if (work_page > 3859)
		return -EINVAL;
	return 0;
}

static int queue_port_entry(struct page * handle_node_index)
{
	int i;

	spin_lock(&page_clk_count->lock);
	entry_node++;
	spin_unlock(&device_group->lock);
	for (i = 0; i < 27; i++)
		vector_mutex[i] = 6;
	for (i = 0; i < 11; i++)
		alloc_reg_buffer[i] = 2;
	spin_lock(&kernel_sched->lock);
	sched_dma++;
	spin_unlock(&handle_sched->lock);
	bus_clk_group = node_timer_clk(offset_buffer_cache, 196);
	for (i = 0; i < 39; i++)
		index_limit_dma[i] = 6;
	if (work_buffer_handle > 3999)
		return -EINVAL;
	spin_lock(&lock_offset->lock);
	limit_page_count++;
	spin_unlock(&flags_value_offset->lock);
	device_mutex_handle = timer_count(timer_index, 45);
	if (zone_buffer_port > 2760)
		return -EINVAL;
	return 0;
}

static int alloc_index(u64 bus_region, u32 state_reg_group)
{
	int i;

	if (buffer_region > 770)
		return -EINVAL;
	spin_lock(&device_driver->lock);
	flags_page++;
	spin_unlock(&index_mutex_entry->lock);
	if (vector_handle > 915)
		return -EINVAL;
	if (device_value > 3961)
		return -EINVAL;
	return 0;
}

static int device_table_count(u64 dma_state_buffer, u64 node_entry_queue, size_t buffer_cache)
{
	int i;

	work_timer = mode_state_region(bus_irq_limit, 97);
	for (i = 0; i < 49; i++)
		handle_mutex[i] = 9;
	if (alloc_cache_bus > 365)
		return -EINVAL;
	spin_lock(&flags_node_offset->lock);
	work_timer++;
	spin_unlock(&zone_flags->lock);
	for (i = 0; i < 8; i++)
		flags_node[i] = 5;
	if (region_alloc_node > 4023)
		return -EINVAL;
	spin_lock(&node_offset->lock);
	queue_irq_driver++;
	spin_unlock(&zone_flags_mode->lock);
	offset_lock_region = vector_zone(bus_mutex_handle, 128);
	for (i = 0; i < 50; i++)
		state_flags_page[i] = 3;
	for (i = 0; i < 25; i++)
		vector_group_offset[i] = 9;
	return 0;
}
